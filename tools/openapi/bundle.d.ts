export type OpenApiDocument = Record<string, unknown> & {
    paths: Record<string, unknown>;
};
/** Bundles `spec/openapi.yaml` (or the file given) into a single document; $refs to components are kept. */
export declare function bundleSpec(entry?: string): OpenApiDocument;
