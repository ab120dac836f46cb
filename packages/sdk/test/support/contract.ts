// Checks an answer against the API's contract (packages/contract/openapi.json): the stand-in API of
// the examples test may only say what the real server may say.
import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';

// ajv-formats is CommonJS with a default export: under NodeNext its callable is `.default`.
const addFormats = addFormatsModule as unknown as typeof addFormatsModule.default;

type Json = Record<string, any>;

const CONTRACT_ID = 'https://content-workspace.test/openapi.json';
const contract = JSON.parse(readFileSync(new URL('../../../contract/openapi.json', import.meta.url), 'utf8')) as Json;
// The contract's extensions (x-access, x-sdk-name…) and OpenAPI keywords are not JSON Schema: not strict.
const ajv = new Ajv2020({ strict: false, allErrors: true, discriminator: true });
addFormats(ajv);
ajv.addSchema({ ...contract, $id: CONTRACT_ID });

const templates = Object.keys(contract.paths as Json).map((template) => ({
  template,
  pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`),
}));

const pointer = (...tokens: string[]) => tokens.map((token) => token.replaceAll('~', '~0').replaceAll('/', '~1')).join('/');

/** Why an answer does not match the contract (empty when it does). */
export function contractProblems(method: string, url: string, status: number, body: unknown): string[] {
  const path = new URL(url).pathname;
  const { template } = templates.find(({ pattern }) => pattern.test(path)) ?? {};
  const operation = template ? (contract.paths[template] as Json)[method.toLowerCase()] : undefined;
  if (!operation) return [`${method} ${path} is no operation of the contract`];
  const statusKey = String(status) in operation.responses ? String(status) : 'default';
  let answer = operation.responses[statusKey] as Json | undefined;
  if (!answer) return [`${method} ${template} does not answer ${status}`];
  let at = pointer('paths', template!, method.toLowerCase(), 'responses', statusKey);
  if (answer.$ref) {
    at = (answer.$ref as string).slice(2);
    answer = at.split('/').reduce((node: Json, key) => node[key], contract);
  }
  if (!answer!.content) return body === undefined || body === '' ? [] : [`${method} ${template} answers ${status} without a body`];
  const validate = ajv.getSchema(`${CONTRACT_ID}#/${at}/content/${pointer('application/json')}/schema`);
  if (!validate) return [`${method} ${template} ${status} has no JSON schema`];
  return validate(body) ? [] : (validate.errors ?? []).map((error: { instancePath: string; message?: string }) => `${method} ${template} ${status}: ${error.instancePath || '/'} ${error.message}`);
}
