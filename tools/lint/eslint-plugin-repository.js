// The repository's own ESLint rules, loaded by eslint.config.js as the plugin `repository`.
// - `cited-paths-exist`: every path a comment cites names a file or folder of the repository
//   (the rules: tools/lint/cited-paths.js; for contributors: docs/contributing.md, "Citing files").
// - `no-area-cycles`: no import cycle between the server's areas (tools/lint/area-cycles.js).
import { noAreaCycles } from './area-cycles.js';
import { resolverFor } from './cited-paths.js';

/** @type {import('eslint').Rule.RuleModule} */
const citedPathsExist = {
  meta: {
    type: 'problem',
    docs: { description: 'Comments cite only files and folders that exist in the repository' },
    schema: [],
    messages: {
      missing: 'This comment cites "{{path}}", which is not in the repository (docs/contributing.md, "Citing files").',
    },
  },
  create(context) {
    const resolver = resolverFor(context.filename);
    if (!resolver) return {};
    return {
      Program() {
        for (const comment of context.sourceCode.getAllComments()) {
          // `range` covers the delimiters (`//`, `/*`): the text starts 2 characters in.
          const start = (comment.range?.[0] ?? 0) + 2;
          for (const citation of resolver.missing(comment.value, context.filename)) {
            context.report({
              loc: { start: context.sourceCode.getLocFromIndex(start + citation.index), end: context.sourceCode.getLocFromIndex(start + citation.index + citation.path.length) },
              messageId: 'missing',
              data: { path: citation.path },
            });
          }
        }
      },
    };
  },
};

export default {
  meta: { name: 'repository' },
  rules: { 'cited-paths-exist': citedPathsExist, 'no-area-cycles': noAreaCycles },
};
