import { describe, expect, it } from 'vitest';
import { listOperations, loadSpec, type OpenApiDocument } from './operations.js';
import { accessSentence, renderReference } from './reference-render.js';

/** The `<article>` of one operation in the rendered page. */
function article(html: string, operationId: string): string {
  const start = html.indexOf(`data-operation-id="${operationId}"`);
  expect(start).toBeGreaterThan(0);
  return html.slice(start, html.indexOf('</article>', start));
}

describe('the reference page', () => {
  it('has one article per operation of the contract, each with its declared access', () => {
    const html = renderReference(loadSpec());
    const operations = listOperations();
    expect(html.match(/<article class="operation"/g)).toHaveLength(operations.length);
    for (const operation of operations) expect(article(html, operation.operationId)).toContain('<div class="access" data-declared="true"><p>Access: ');
  });

  it('shows x-access as a visible line with its named rules explained', () => {
    const html = renderReference(loadSpec());
    expect(article(html, 'updateSpaceById')).toContain('<p>Access: <code>admin</code> on the space</p>');
    expect(article(html, 'mergeChangeRequest')).toContain("<p>Access: <code>review</code> on the change request's space</p>");
    const create = article(html, 'createSpace');
    expect(create).toContain('<p>Access: <code>create</code> on the organization</p>');
    expect(create).toContain('<li><code>sso-enforced</code>: Refused (403) to a member disabled');
    expect(create).toContain('<li><code>create-in-parent</code>: The new item');
    expect(article(html, 'downloadFile')).toContain('<p>Access: public: no bearer token (the request carries its own credential)</p>');
  });

  it('falls back on the description where an operation declares no access', () => {
    const spec = structuredClone(loadSpec()) as OpenApiDocument;
    delete spec.paths['/v1/spaces/{spaceId}']!.get['x-access'];
    expect(article(renderReference(spec), 'getSpaceById')).toContain('<div class="access" data-declared="false"><p>Access (from the description): Needs <code>read</code> on the space.</p></div>');
  });

  it('words every kind of minimum', () => {
    expect(accessSentence({ scope: 'organization', minimum: 'guest' })).toBe('any member of the organization, guests included');
    expect(accessSentence({ scope: 'organization', minimum: 'member' })).toBe('a member of the organization (not a guest)');
    expect(accessSentence({ scope: 'user', minimum: 'authenticated' })).toBe('any authenticated user');
    expect(accessSentence({ scope: 'collection', minimum: 'create' })).toBe('<code>create</code> on the collection');
  });

  it('escapes what the spec says rather than running it', () => {
    const spec = structuredClone(loadSpec()) as OpenApiDocument;
    spec.paths['/v1/user']!.get.summary = '<script>alert(1)</script>';
    spec.paths['/v1/user']!.get.description = 'Hello <img src=x onerror=alert(1)> [link](javascript:alert(1))';
    const html = renderReference(spec);
    expect(html).not.toContain('<script>alert(1)');
    expect(html).not.toContain('<img src=x');
    expect(html).not.toContain('href="javascript:');
    expect(html).toContain('&#60;script&#62;alert(1)&#60;/script&#62;');
  });
});
