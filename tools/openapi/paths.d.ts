export declare const repoRoot: string;
export declare const contractDir: string;
