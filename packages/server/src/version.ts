// The server's version: the package's, which is the release's (CHANGELOG.md, tag `v<version>`). Bundled
// into the build, so `node dist/main.js --version` needs no package.json beside it.
import packageJson from '../package.json' with { type: 'json' };

export const VERSION: string = packageJson.version;

/**
 * Prints the version when the only argument asks for it, and says whether it did: the entries check
 * this before importing the rest of the server (seconds of module loading on a busy machine).
 */
export function printedVersion(argv = process.argv.slice(2)): boolean {
  if (argv.length !== 1 || (argv[0] !== '--version' && argv[0] !== '-v')) return false;
  process.stdout.write(`content-workspace ${VERSION}\n`);
  return true;
}
