// The demo account of an embedded database, told at every start in a banner on stderr, written after
// the `listening` log line: the last thing a person at the terminal sees, and stdout stays JSON lines
// for log collectors. The first start shows the new token (once: only its hash is stored); later starts
// show the command that issues another one.
import type { Mode } from './config.js';

export const DEMO_EMAIL = 'demo@example.com';

export type DemoAccount = { email: string; organizationTitle: string | undefined; token: string | undefined };

/** The CLI as the person at this terminal runs it: `pnpm cli` in a checkout, the build's cli.js otherwise. */
function cliCommand(mode: Mode): string {
  return mode === 'development' ? 'pnpm cli' : 'node dist/cli.js';
}

export function demoBanner(demo: DemoAccount, publicUrl: string, mode: Mode): string {
  const rule = '='.repeat(78);
  const newToken = `${cliCommand(mode)} admin token --email ${demo.email}`;
  const account = `  Demo user ${demo.email}${demo.organizationTitle ? `, organization "${demo.organizationTitle}"` : ''}.`;
  const token = demo.token
    ? [`  API token (shown once; \`${newToken}\` issues another):`, '', `    ${demo.token}`, '', `  Try it:  curl -H "Authorization: Bearer ${demo.token}" ${publicUrl}/v1/orgs`]
    : ['  A new API token (the first one was shown on the first start only):', '', `    ${newToken}`, '', `  Then:  export TOKEN=…; curl -H "Authorization: Bearer $TOKEN" ${publicUrl}/v1/orgs`];
  return ['', rule, `  Content Workspace is running at ${publicUrl}`, account, ...token, `  API reference: ${publicUrl}/docs/`, rule, '', ''].join('\n');
}
