// The tools of the API's MCP server, each one REST operation (or one change of a content batch) of the
// contract: its input schema is the operation's parameters and body as the contract declares them
// (operation-schema.ts), its call the operation itself (rest-caller.ts), its annotations what the
// operation does. Pages are read and written in the agent form of agent-markdown.ts.
import type { CallToolResult, ToolAnnotations } from '@modelcontextprotocol/sdk/types.js';
import { bodyFromAgentMarkdown, pageFromAgentMarkdown, pageToAgentMarkdown } from '../../content/agent-markdown.js';
import { componentSchema, objectSchema, operationParameters, requestBodySchema, specOperation, type InputPlacement, type JsonSchema } from './operation-schema.js';
import type { RestAnswer, RestCaller } from './rest-caller.js';

export type ToolContext = {
  api: RestCaller;
  /** The `Idempotency-Key` of a write when the input gives none (one per tool call: see agent-server.ts). */
  derivedIdempotencyKey: string;
};

export type AgentTool = {
  name: string;
  title: string;
  description: string;
  inputSchema: JsonSchema;
  annotations: ToolAnnotations;
  call(input: Record<string, unknown>, context: ToolContext): Promise<CallToolResult>;
};

const READ: ToolAnnotations = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };
const write = (destructive: boolean, idempotent: boolean): ToolAnnotations => ({ readOnlyHint: false, destructiveHint: destructive, idempotentHint: idempotent, openWorldHint: false });

const IDEMPOTENCY_KEY: JsonSchema = {
  type: 'string',
  minLength: 1,
  maxLength: 255,
  description: 'Sent as the `Idempotency-Key` of the write: a retried call with the same key is answered from the first. Derived from the MCP request when omitted.',
};
const AGENT_MARKDOWN_NOTE =
  'Markdown in the agent form `read_page` returns: GitBook blocks as GFM alerts (`> [!NOTE]`), `<!-- tabs -->` sections with `#### Tab title` headings, fence titles (```js title="a.js"), `<details>`, and `<!-- content-ref url="…" -->` / `<!-- embed url="…" -->` comments.';
const DOCUMENT: JsonSchema = {
  type: 'string',
  maxLength: 1_000_000,
  description: `The whole page as \`read_page\` returns it: a \`# Title\` line, the description as a \`> \` quote, then the body. Sets \`title\`, \`description\` and \`markdown\`. ${AGENT_MARKDOWN_NOTE}`,
};

/** An answer of the API as a tool result: the body as text (and structured), a 4xx/5xx as a tool error carrying the same `{error}`. */
function result(answer: RestAnswer): CallToolResult {
  const isError = answer.status >= 400;
  const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body, null, 2);
  return {
    content: [{ type: 'text', text: text === '' ? `${answer.status}` : text }],
    ...(answer.body !== null && typeof answer.body === 'object' && !Array.isArray(answer.body) ? { structuredContent: answer.body as Record<string, unknown> } : {}),
    ...(isError ? { isError: true } : {}),
  };
}

/** A refusal the tool makes itself, in the API's error shape (only for the tool's own fields). */
function refusal(path: string, message: string): CallToolResult {
  return result({ status: 400, body: { error: { code: 400, message: `${path}: ${message}`, issues: [{ path, message }] } } });
}

function pick(input: Record<string, unknown>, names: string[]): Record<string, unknown> {
  return Object.fromEntries(names.filter((name) => input[name] !== undefined).map((name) => [name, input[name]]));
}

/** What names and describes a tool to clients. */
type ToolHead = Pick<AgentTool, 'name' | 'title' | 'description' | 'annotations'>;

/** A tool of `inputSchema` whose input properties the schema does not know are refused (rather than silently ignored) before `run` sees them. */
function strictTool(head: ToolHead, inputSchema: JsonSchema, run: AgentTool['call']): AgentTool {
  const known = new Set(Object.keys(inputSchema.properties as object));
  return {
    name: head.name,
    title: head.title,
    description: head.description,
    inputSchema,
    annotations: head.annotations,
    call(input, context) {
      const unknown = Object.keys(input).find((name) => !known.has(name));
      if (unknown !== undefined) return Promise.resolve(refusal(`/${unknown}`, 'is not a parameter of this tool'));
      return run(input, context);
    },
  };
}

/** A write's `Idempotency-Key`: the input's, else the one derived from the call. */
const idempotencyKeyOf = (input: Record<string, unknown>, context: ToolContext) => String(input.idempotencyKey ?? context.derivedIdempotencyKey);

type OperationToolOptions = ToolHead & {
  operationId: string;
  /** Parameters the tool sets itself (not part of its input). */
  omit?: string[];
  /** A fixed body (the tool's input then carries no body properties). */
  body?: Record<string, unknown>;
};

/** A tool that is exactly one operation: path and query parameters and body properties side by side. */
function operationTool(options: OperationToolOptions): AgentTool {
  const parameters = operationParameters(options.operationId, { omit: options.omit });
  const bodySchema = options.body ? undefined : requestBodySchema(options.operationId);
  const placement: InputPlacement = { ...parameters.placement, body: Object.keys(bodySchema?.properties ?? {}) };
  const isWrite = specOperation(options.operationId).method !== 'get';
  const properties = { ...parameters.properties, ...(bodySchema?.properties ?? {}), ...(isWrite ? { idempotencyKey: IDEMPOTENCY_KEY } : {}) };
  const inputSchema = objectSchema(properties, [...parameters.required, ...((bodySchema?.required as string[] | undefined) ?? [])]);
  return strictTool(options, inputSchema, async (input, context) => {
    const body = options.body ?? (bodySchema ? pick(input, placement.body) : undefined);
    return result(
      await context.api(options.operationId, {
        path: pick(input, placement.path),
        query: pick(input, placement.query),
        body,
        idempotencyKey: isWrite ? idempotencyKeyOf(input, context) : undefined,
      }),
    );
  });
}

const CONTENT_CHANGES = 'applyChangeRequestContentChanges';

type PageChangeToolOptions = ToolHead & {
  /** The change's schema in the contract. */
  change: 'InsertPageChange' | 'UpdatePageChange' | 'DeletePageChange';
  type: 'insert_page' | 'update_page' | 'delete_page';
  /** The change's properties the tool takes (all but `type` and `ref` when omitted). */
  only?: string[];
  /** Whether the tool takes a whole page in the agent form (`document`). */
  document?: boolean;
};

/** A tool that is one page change of a change request's content batch, its body in the agent form. */
function pageChangeTool(options: PageChangeToolOptions): AgentTool {
  const parameters = operationParameters(CONTENT_CHANGES);
  const schema = componentSchema(options.change);
  const changeProperties = Object.fromEntries(
    Object.entries(schema.properties as Record<string, JsonSchema>).filter(([name]) => name !== 'type' && name !== 'ref' && (!options.only || options.only.includes(name))),
  );
  if (changeProperties.markdown) changeProperties.markdown = { ...changeProperties.markdown, description: `The body. ${AGENT_MARKDOWN_NOTE}` };
  const changeNames = Object.keys(changeProperties);
  // With a whole document, the title may come from it: only the page reference stays required.
  const required = ((schema.required as string[]) ?? []).filter((name) => name in changeProperties && !(options.document && name === 'title'));
  const inputSchema = objectSchema(
    { ...parameters.properties, ...changeProperties, ...(options.document ? { document: DOCUMENT } : {}), idempotencyKey: IDEMPOTENCY_KEY },
    [...parameters.required, ...required],
  );
  return strictTool(options, inputSchema, async (input, context) => {
    // A new page's id comes back as `refs.page`.
    const change: Record<string, unknown> = { type: options.type, ...(options.type === 'insert_page' ? { ref: 'page' } : {}), ...pick(input, changeNames) };
    if (typeof change.markdown === 'string') change.markdown = bodyFromAgentMarkdown(change.markdown);
    if (options.document && input.document !== undefined) {
      if (typeof input.document !== 'string') return refusal('/document', 'must be a string');
      const page = pageFromAgentMarkdown(input.document);
      if (!page) return refusal('/document', 'must start with a `# Title` line');
      change.title ??= page.title;
      change.markdown ??= page.markdown;
      // An update removes a description the document no longer has; an insert simply has none.
      if (change.description === undefined && page.description !== null) change.description = page.description;
      else if (change.description === undefined && options.type === 'update_page') change.description = null;
    }
    return result(await context.api(CONTENT_CHANGES, { path: pick(input, parameters.placement.path), body: { changes: [change] }, idempotencyKey: idempotencyKeyOf(input, context) }));
  });
}

/** Reading a page: of the space's current content, or of a change request's when `changeRequestId` is given. */
function readPageTool(): AgentTool {
  const space = operationParameters('getSpacePageById', { omit: ['format', 'metadata', 'computed'] });
  const inChangeRequest = operationParameters('getChangeRequestPageById', { omit: ['format', 'metadata', 'computed'] });
  const inputSchema = objectSchema({ ...space.properties, changeRequestId: inChangeRequest.properties.changeRequestId! }, space.required);
  const head = {
    name: 'read_page',
    title: 'Read a page as Markdown',
    description: `A page as Markdown: \`# Title\`, the description as a quote, then the body. ${AGENT_MARKDOWN_NOTE} Write it back with \`update_page\`'s \`document\`.`,
    annotations: READ,
  };
  return strictTool(head, inputSchema, async (input, context) => {
    const fromChangeRequest = input.changeRequestId !== undefined;
    const answer = await context.api(fromChangeRequest ? 'getChangeRequestPageById' : 'getSpacePageById', {
      path: pick(input, fromChangeRequest ? inChangeRequest.placement.path : space.placement.path),
      query: { format: 'markdown' },
    });
    if (answer.status >= 400) return result(answer);
    const page = answer.body as { title: string; description?: string | null; markdown?: string };
    return { content: [{ type: 'text', text: pageToAgentMarkdown({ title: page.title, description: page.description, markdown: page.markdown ?? '' }) }] };
  });
}

function listPagesTool(): AgentTool {
  const space = operationParameters('listSpacePages');
  const inChangeRequest = operationParameters('listChangeRequestPages');
  const inputSchema = objectSchema({ ...space.properties, changeRequestId: inChangeRequest.properties.changeRequestId! }, space.required);
  const head = { name: 'list_pages', title: 'List the pages of a space', description: "The pages of a space's current content (or of a change request's), with their ids, titles and paths.", annotations: READ };
  return strictTool(head, inputSchema, async (input, context) => {
    const fromChangeRequest = input.changeRequestId !== undefined;
    const parameters = fromChangeRequest ? inChangeRequest : space;
    return result(
      await context.api(fromChangeRequest ? 'listChangeRequestPages' : 'listSpacePages', { path: pick(input, parameters.placement.path), query: pick(input, parameters.placement.query) }),
    );
  });
}

let tools: AgentTool[] | undefined;

/** The tools, built once from the contract. */
export function agentTools(): AgentTool[] {
  tools ??= [
    operationTool({ name: 'list_organizations', title: 'List organizations', description: 'The organizations the token may reach.', operationId: 'listOrganizations', annotations: READ }),
    operationTool({ name: 'list_spaces', title: 'List spaces', description: 'The spaces of an organization the caller may see.', operationId: 'listSpacesInOrganization', annotations: READ }),
    operationTool({ name: 'search', title: 'Search content', description: "Searches the pages of an organization's spaces the caller may see.", operationId: 'searchOrganizationContent', annotations: READ }),
    listPagesTool(),
    readPageTool(),
    operationTool({
      name: 'open_change_request',
      title: 'Open a change request',
      description: 'Opens a change request (a draft) on a space: pages are then written in it and merged when reviewed.',
      operationId: 'createChangeRequest',
      annotations: write(false, false),
    }),
    pageChangeTool({
      name: 'create_page',
      title: 'Create a page',
      description: 'Creates a page in a change request, from Markdown (`document`, or `title` with `markdown`); its id is answered as `refs.page`.',
      annotations: write(false, false),
      change: 'InsertPageChange',
      type: 'insert_page',
      document: true,
    }),
    pageChangeTool({
      name: 'update_page',
      title: 'Update a page',
      description: "Replaces a page's title, description or body in a change request (from Markdown: `document` as `read_page` returns it, or the fields).",
      annotations: write(true, true),
      change: 'UpdatePageChange',
      type: 'update_page',
      only: ['page', 'title', 'description', 'markdown', 'slug', 'hidden', 'emoji'],
      document: true,
    }),
    pageChangeTool({
      name: 'move_page',
      title: 'Move a page',
      description: 'Moves a page in a change request: under another parent (`null` for the top level) and/or to a position among its siblings.',
      annotations: write(false, true),
      change: 'UpdatePageChange',
      type: 'update_page',
      only: ['page', 'parent', 'index'],
    }),
    pageChangeTool({
      name: 'delete_page',
      title: 'Delete a page',
      description: 'Deletes a page and its descendants in a change request.',
      annotations: write(true, true),
      change: 'DeletePageChange',
      type: 'delete_page',
    }),
    operationTool({
      name: 'comment_on_change_request',
      title: 'Comment on a change request',
      description: 'Posts a comment on a change request.',
      operationId: 'postCommentInChangeRequest',
      annotations: write(false, false),
    }),
    operationTool({
      name: 'request_review',
      title: 'Request review',
      description: 'Marks a draft change request open for review.',
      operationId: 'updateChangeRequestById',
      annotations: write(false, true),
      body: { status: 'open' },
    }),
    operationTool({
      name: 'merge_change_request',
      title: 'Merge a change request',
      description: "Merges a change request into its space's content.",
      operationId: 'mergeChangeRequest',
      annotations: write(true, true),
    }),
  ];
  return tools;
}
