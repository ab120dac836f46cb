import { defineConfig } from 'vitest/config';
import { serverProject } from './vitest.server-projects.js';

// Most files share a worker's imported modules (`isolate: false`); the few listed in
// vitest.server-projects.ts run in a fresh process each, as the `server:isolated` project
// (vitest.isolated.config.ts).
export default defineConfig({ test: serverProject('shared') });
