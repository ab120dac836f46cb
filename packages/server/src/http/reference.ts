// GET /docs/: the API reference (reference-render.ts), outside the spec and before the validator.
// Everything it needs is served from here, under a policy that allows nothing from another origin.
// Rendered on the first request, not at start-up: the renderer and markdown-it (~80 ms to import) are
// loaded then, so the server starts as fast as before.
import type { IRouter, Response } from 'express';
import { loadSpec, type OpenApiDocument } from './operations.js';
import { REFERENCE_ASSETS, REFERENCE_CSS, REFERENCE_JS } from './reference-assets.js';

export const REFERENCE_CSP = "default-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

function send(res: Response, type: string, body: string) {
  res.set({
    'Content-Security-Policy': REFERENCE_CSP,
    'Cache-Control': 'public, max-age=300',
    'Cross-Origin-Resource-Policy': 'same-origin',
  });
  res.type(type).send(body);
}

export function mountReference(app: IRouter, spec: () => OpenApiDocument = loadSpec) {
  let page: Promise<string> | undefined;
  let json: string | undefined;
  const render = async () => (await import('./reference-render.js')).renderReference(spec());
  // Relative links on the page need the trailing slash.
  app.get('/docs', (req, res, next) => {
    if (req.path !== '/docs') return next();
    res.redirect(301, '/docs/');
  });
  app.get('/docs/', async (_req, res) => {
    page ??= render().catch((error: unknown) => {
      page = undefined;
      throw error;
    });
    send(res, 'html', await page);
  });
  app.get(`/docs/${REFERENCE_ASSETS.css}`, (_req, res) => send(res, 'css', REFERENCE_CSS));
  app.get(`/docs/${REFERENCE_ASSETS.js}`, (_req, res) => send(res, 'js', REFERENCE_JS));
  app.get(`/docs/${REFERENCE_ASSETS.spec}`, (_req, res) => send(res, 'json', (json ??= JSON.stringify(spec()))));
}
