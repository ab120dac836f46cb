// The demo user's token, shown once on the first start of an embedded database. A banner on stderr,
// written after the `listening` log line: the last thing a person at the terminal sees, and stdout
// stays JSON lines for log collectors.

export type DemoAccount = { email: string; organizationTitle: string | undefined; token: string };

export function demoBanner(demo: DemoAccount, publicUrl: string): string {
  const rule = '='.repeat(78);
  return [
    '',
    rule,
    `  Content Workspace is running at ${publicUrl}`,
    `  Demo user ${demo.email}${demo.organizationTitle ? `, organization "${demo.organizationTitle}"` : ''}.`,
    `  API token (shown once; \`pnpm cli admin token --email ${demo.email}\` issues another):`,
    '',
    `    ${demo.token}`,
    '',
    `  Try it:  curl -H "Authorization: Bearer ${demo.token}" ${publicUrl}/v1/orgs`,
    `  API reference: ${publicUrl}/docs/`,
    rule,
    '',
    '',
  ].join('\n');
}
