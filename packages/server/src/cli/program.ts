// `content-workspace`: migrations and administration, for the two entries (main.ts: the build,
// production; dev.ts: `pnpm cli`, development — see config.ts for what the mode changes). Each admin
// command prints the token alone on its last line, so scripts can take it with `tail -n 1`.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Command } from 'commander';
import pg from 'pg';
import { ConfigError, loadConfig, lookAlikeVariables, lookAlikeWarning, type Config, type Mode } from '../config.js';
import { createDatabase, createPool, type Database } from '../db/database.js';
import { startEmbeddedPostgres } from '../db/embedded.js';
import { findUserByEmail } from '../auth/users.repository.js';
import { isKeyKind, rotateServerKeys, type KeyKind } from '../keys.js';
import { createLogger, type Logger } from '../logger.js';
import { bootstrap, ensureUser, issueToken } from '../areas/organizations/index.js';
import { migrate } from '../server.js';
import { StartFailure } from '../start-failure.js';
import { VERSION } from '../version.js';

async function reachable(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 2000 });
  client.on('error', () => {}); // only whether it connects matters here
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

/** DATABASE_URL, else the running server's embedded database, else the embedded database started here. */
async function openDatabase(config: Config, log: Logger): Promise<{ url: string; close(): Promise<void> }> {
  if (config.databaseUrl) return { url: config.databaseUrl, close: async () => {} };
  const urlFile = join(config.dataDir, 'postgres.url');
  if (existsSync(urlFile)) {
    const url = readFileSync(urlFile, 'utf8').trim();
    if (await reachable(url)) return { url, close: async () => {} };
  }
  const embedded = await startEmbeddedPostgres({ dataDir: join(config.dataDir, 'postgres'), database: 'content_workspace', log });
  return { url: embedded.url, close: () => embedded.stop() };
}

let mode: Mode = 'production';

async function withDatabase<T>(action: (db: Database) => Promise<T>): Promise<T> {
  // Said first: a misspelt DATABASE_URL is why the configuration then finds none.
  for (const { name, meant } of lookAlikeVariables(process.env)) process.stderr.write(`${lookAlikeWarning(name, meant)}\n`);
  const config = loadConfig(process.env, mode);
  // Logs go to stderr: stdout is the command's output (a token on the last line, for scripts).
  const log = createLogger({ logLevel: process.env.LOG_LEVEL ? config.logLevel : 'warn' }, 'stderr');
  const database = await openDatabase(config, log);
  try {
    await migrate(database.url, log);
    const pool = createPool(database.url, 2, log);
    const db = createDatabase(pool);
    try {
      return await action(db);
    } finally {
      await db.destroy();
    }
  } finally {
    await database.close();
  }
}

const program = new Command()
  .name('content-workspace')
  .description('Content Workspace server administration')
  .version(`content-workspace ${VERSION}`, '-v, --version', 'print the version')
  .showHelpAfterError();

program
  .command('migrate')
  .description('run pending database migrations')
  .action(async () => {
    await withDatabase(async () => undefined);
    console.log('Database is up to date.');
  });

const admin = program.command('admin').description('users, tokens and keys');

admin
  .command('bootstrap')
  .description('create a user, an organization they administer, and a token (run again: only a new token)')
  .requiredOption('--email <email>', 'e-mail of the user')
  .option('--name <name>', 'display name')
  .option('--org <title>', 'title of the organization')
  .action(async (options: { email: string; name?: string; org?: string }) => {
    const result = await withDatabase((db) =>
      bootstrap(db, { email: options.email, ...(options.name ? { name: options.name } : {}), ...(options.org ? { organizationTitle: options.org } : {}) }),
    );
    console.log(`User ${result.user.email} (${result.user.id})`);
    if (result.organization) console.log(`Organization "${result.organization.title}" (${result.organization.id})`);
    console.log(result.token);
  });

admin
  .command('create-user')
  .description('create a user (or find the existing one) and issue a token')
  .requiredOption('--email <email>', 'e-mail of the user')
  .option('--name <name>', 'display name')
  .action(async (options: { email: string; name?: string }) => {
    const { user, token } = await withDatabase(async (db) => {
      const { user } = await ensureUser(db, options.email, options.name);
      return { user, token: await issueToken(db, user.id, 'cli') };
    });
    console.log(`User ${user.email} (${user.id})`);
    console.log(token);
  });

admin
  .command('token')
  .description('issue a new token for an existing user')
  .requiredOption('--email <email>', 'e-mail of the user')
  .action(async (options: { email: string }) => {
    const token = await withDatabase(async (db) => {
      const user = await findUserByEmail(db, options.email);
      if (!user) throw new CliError(`No user with e-mail ${options.email}`);
      return issueToken(db, user.id, 'cli');
    });
    console.log(token);
  });

admin
  .command('rotate-keys')
  .description('replace the stored server keys (all, or the given kinds); restart every instance afterwards')
  .argument('[kinds...]', 'cursor, fileSignature, jwt')
  .action(async (kinds: string[]) => {
    const invalid = kinds.filter((kind) => !isKeyKind(kind));
    if (invalid.length) throw new CliError(`Unknown key kinds: ${invalid.join(', ')}`);
    const rotated = await withDatabase((db) => rotateServerKeys(db, kinds.length ? (kinds as KeyKind[]) : undefined));
    console.log(`Rotated: ${rotated.join(', ')}`);
  });

class CliError extends Error {}

/** Runs the command of `process.argv`; a failure an operator can fix is one sentence on stderr and exit code 1. */
export async function runCli(as: Mode): Promise<void> {
  mode = as;
  try {
    await program.parseAsync(process.argv);
  } catch (error) {
    if (error instanceof CliError || error instanceof ConfigError || error instanceof StartFailure) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}
