import type { OpenApiDocument } from './bundle.js';
declare const METHODS: readonly ["get", "put", "post", "delete", "options", "head", "patch"];
export declare const SDK_OPERATIONS_FILE = "packages/sdk/src/generated/operations.ts";
/** One operation as the SDK names it. */
export type NamedOperation = {
    group: string;
    name: string;
    method: (typeof METHODS)[number];
    path: string;
    operationId: string;
    summary?: string;
    description?: string;
};
/** A tag's name in camelCase, as the SDK groups its operations: "Change requests" → `changeRequests`. */
export declare function groupName(tag: string): string;
/** The method name of an operation in its group (see the rule at the top of this file). */
export declare function methodName(operationId: string, group: string): string;
/** Every operation of the spec with its group and method name, in the spec's order of tags and paths. */
export declare function namedOperations(spec: OpenApiDocument): NamedOperation[];
/** The text of packages/sdk/src/generated/operations.ts. */
export declare function sdkOperationsModule(spec: OpenApiDocument): string;
export {};
