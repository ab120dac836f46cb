export declare function longPage(seed: number): string;
