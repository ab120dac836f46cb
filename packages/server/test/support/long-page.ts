// The bench's long documentation page (bench/sites.ts), like the longest of the sample site of issue 28
// (a package's API reference: ~45 KB of Markdown, 36 sections, a code sample in one of six languages and
// an options table each, links to other pages and a hint every few sections). `seed` makes each one a
// different document.
const LANGUAGES = ['ts', 'bash', 'json', 'yaml', 'js', 'python'];
/** 36 sections make the ~45 KB of the sample's longest page (60 made 75 KB: see docs/decisions.md, "Published sites: search as you type at 100,000 pages"). */
const SECTIONS = 36;

function sample(language: string, seed: number): string {
  const lines = Array.from({ length: 12 }, (_, j) => {
    if (language === 'json') return `  "option${j}": { "default": ${seed + j}, "values": ["a", "b", true, null] },`;
    if (language === 'yaml') return `option${j}:\n  default: ${seed + j}\n  values: [a, b]`;
    if (language === 'bash') return `pnpm add @acme/client@${seed}.${j} --save-exact && echo "done ${j}"`;
    if (language === 'python') return `value_${j} = client.call("op_${j}", id=${seed + j}, flag=True)  # comment`;
    return `const value${j} = await client.call('op${j}', { id: ${seed + j}, flag: true }); // comment`;
  });
  return `\`\`\`${language}\n${lines.join('\n')}\n\`\`\``;
}

export function longPage(seed: number): string {
  const parts = [`# API reference ${seed}\n\nEvery option of the client, with an example each. See [the guide](../guide.md) first.`];
  for (let i = 0; i < SECTIONS; i++) {
    parts.push(`## \`option${i}\` (${seed})`);
    parts.push(`Sets how the client handles case ${i}: with **bold**, *emphasis*, \`code\` and [a link](https://example.com/${i}). ${'Ordinary prose about the option and what it changes for the caller. '.repeat(3)}`);
    parts.push(sample(LANGUAGES[i % LANGUAGES.length]!, seed + i));
    parts.push(`| Field | Type | Default |\n| --- | --- | --- |\n${Array.from({ length: 4 }, (_, j) => `| field${j} | \`string\` | ${j} |`).join('\n')}`);
    if (i % 5 === 0) parts.push(`{% hint style="info" %}\nOption ${i} is new in version ${seed}.\n{% endhint %}`);
  }
  return parts.join('\n\n');
}
