#!/usr/bin/env node
// The command line as run from the sources (`node --import tsx bin/unified-api-sandbox.ts`); the
// package's bin, dist/cli.mjs, runs the same `runCli` from the built code (see bin/core-loader.ts).
import { runCli } from './cli.js';

runCli(process.argv.slice(2));
