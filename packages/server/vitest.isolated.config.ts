import { defineConfig } from 'vitest/config';
import { serverProject } from './vitest.projects.js';

export default defineConfig({ test: serverProject('isolated') });
