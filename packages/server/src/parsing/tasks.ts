// The tasks the parse pool runs (parse-pool.ts), by name. Each loads its module on first use in a
// worker, so a worker that only ever checks Markdown never loads the PDF or OpenAPI engines. Tasks are
// pure functions of their input (plain data in, plain data out: structured clone); a task that fails
// for what its input holds says so in its result rather than by throwing.
import type { AgentBody } from '../content/agent-markdown.js';
import type { Anchor } from '../areas/comments/anchoring.js';
import type { BodyVerdict, ParsedBody } from '../content/body-parse.js';
import type { readGitbookConfig, ReadHtml, ReadMarkdown } from '../areas/import/import-parse.js';
import type { SummaryRead } from '../areas/import/summary-outline.js';
import type { OpenAPISource, ProcessLimits, ProcessOutcome } from '../areas/openapi-specs/openapi-processing.js';
import type { BodyTemplate } from '../areas/sites/published/body-template.js';
import type { RenderInput } from '../areas/pdf/pdf-render.js';
import type { SocialInput } from '../areas/sites/published/social-image.js';

type GitbookConfig = ReturnType<typeof readGitbookConfig>;

type Task<I, O> = () => Promise<(input: I) => O | Promise<O>>;
const task = <I, O>(load: Task<I, O>) => load;

export const TASKS = {
  /** The markdown gate: a body read once, or why it is refused (content/body-parse.ts). */
  markdown: task<{ markdown: string; normalize: boolean }, BodyVerdict>(async () => {
    const { parseBody } = await import('../content/body-parse.js');
    return ({ markdown, normalize }) => parseBody(markdown, { normalize });
  }),
  /** What is kept of a stored body the gate would refuse (content/body-parse.ts). */
  'markdown-unreadable': task<{ markdown: string }, ParsedBody>(async () => {
    const { unreadableBody } = await import('../content/body-parse.js');
    return ({ markdown }) => unreadableBody(markdown);
  }),
  /** A stored body in the agent form with its destinations (content/agent-markdown.ts): a published page's `.md`. */
  'agent-markdown': task<{ markdown: string }, AgentBody>(async () => {
    const { readAgentBody } = await import('../content/agent-markdown.js');
    return ({ markdown }) => readAgentBody(markdown);
  }),
  /** An imported HTML page: its main content as Markdown, its links (areas/import/import-parse.ts). */
  'import-html': task<{ html: string; url: string }, ReadHtml>(async () => (await import('../areas/import/import-parse.js')).readHtml),
  /** An imported Markdown file: front matter, title, body and its destinations. */
  'import-markdown': task<{ text: string }, ReadMarkdown>(async () => (await import('../areas/import/import-parse.js')).readMarkdown),
  /** An imported archive's SUMMARY.md as an outline (areas/import/summary-outline.ts). */
  'import-summary': task<{ text: string }, SummaryRead>(async () => {
    const { summaryOutline } = await import('../areas/import/summary-outline.js');
    return ({ text }) => summaryOutline(text);
  }),
  /** An imported archive's `.gitbook.yaml`. */
  'import-yaml': task<{ text: string }, GitbookConfig>(async () => (await import('../areas/import/import-parse.js')).readGitbookConfig),
  /** An OpenAPI document fetched, checked, linted and bundled (areas/openapi-specs/openapi-processing.ts). */
  openapi: task<{ source: OpenAPISource; limits: ProcessLimits }, ProcessOutcome>(async () => {
    const { processOpenAPISource } = await import('../areas/openapi-specs/openapi-processing.js');
    return ({ source, limits }) => processOpenAPISource(source, limits);
  }),
  /** The files a PDF's bodies show as images (areas/pdf/pdf-render.ts). */
  'pdf-images': task<{ trees: string[] }, string[]>(async () => (await import('../areas/pdf/pdf-render.js')).imagesOfTrees),
  /** A change request's PDF, laid out and rendered. */
  'pdf-render': task<RenderInput, Uint8Array>(async () => (await import('../areas/pdf/pdf-render.js')).renderPdf),
  /** A published page's body as HTML with holes for its links (areas/sites/published/markdown-html.ts). */
  'site-body': task<{ markdown: string }, BodyTemplate>(async () => {
    const [{ renderBodyTemplate }, { CodeHighlighter, HIGHLIGHT_KEPT_CHARS }] = await Promise.all([import('../areas/sites/published/markdown-html.js'), import('../areas/sites/published/code-highlight.js')]);
    // Kept by the worker for the renders it runs (code-highlight.ts).
    const highlighter = new CodeHighlighter(HIGHLIGHT_KEPT_CHARS);
    return ({ markdown }) => renderBodyTemplate(markdown, highlighter);
  }),
  /** A published page's social image, a PNG (areas/sites/published/social-image.ts). */
  'social-image': task<SocialInput, Uint8Array>(async () => {
    const [{ renderSocialImage }, { SocialFonts, SOCIAL_KEPT_FONT_BYTES }] = await Promise.all([import('../areas/sites/published/social-image.js'), import('../areas/sites/published/social-fonts.js')]);
    // Kept by the worker for the images it renders: font files, ranges, emoji (social-fonts.ts).
    const fonts = new SocialFonts(SOCIAL_KEPT_FONT_BYTES);
    return (input) => renderSocialImage(input, fonts);
  }),
  /** Where comments' anchors now are in a changed body (areas/comments/anchoring.ts). */
  reanchor: task<{ blocks: string; anchors: Anchor[] }, Array<{ id: string; preview: string } | null>>(async () => (await import('../areas/comments/anchoring.js')).reanchorAll),
};

export type TaskName = keyof typeof TASKS;
type TaskFunction<K extends TaskName> = Awaited<ReturnType<(typeof TASKS)[K]>>;
export type TaskInput<K extends TaskName> = Parameters<TaskFunction<K>>[0];
export type TaskOutput<K extends TaskName> = Awaited<ReturnType<TaskFunction<K>>>;
