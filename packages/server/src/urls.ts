// Absolute addresses in responses, built from PUBLIC_URL (API) and APP_URL (app).
import type { Config } from './config.js';

export type Urls = {
  /** `PUBLIC_URL` + path, e.g. api('/v1/orgs/abc'). */
  api(path: string): string;
  /** `APP_URL` + path. */
  app(path: string): string;
};

export function createUrls(config: Pick<Config, 'publicUrl' | 'appUrl'>): Urls {
  return {
    api: (path) => `${config.publicUrl}${path}`,
    app: (path) => `${config.appUrl}${path}`,
  };
}
