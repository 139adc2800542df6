import { createRequire } from 'node:module';

type Yaml = typeof import('yaml');

/**
 * The YAML library, loaded the first time a YAML text is read or written (a fixture file, a drift
 * file, a recorded world): loading it costs some 10 to 30 ms, which a start that reads none need not
 * pay (the readers are synchronous, hence require). Every reader and writer of YAML goes through it.
 */
let yaml: Yaml | undefined;
export function yamlModule(): Yaml {
  yaml ??= createRequire(import.meta.url)('yaml') as Yaml;
  return yaml;
}
