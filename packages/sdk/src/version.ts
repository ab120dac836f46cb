/**
 * The SDK's version, sent in the `User-Agent` header. A test keeps it equal to package.json's
 * `version`: reading package.json at run time would not survive bundling into an application.
 */
export const VERSION = '0.2.0';
