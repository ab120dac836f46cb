import { defineConfig } from 'vitest/config';
import { serverProject } from './vitest.server-projects.js';

export default defineConfig({ test: serverProject('isolated') });
