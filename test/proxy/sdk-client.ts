import { API } from '@chift/chift-nodejs';
import { seedDirectory } from '../../src/control/seeded-world.js';

/** The official Node SDK pointed at `url` with the sandbox keys of the world of `seed`. */
export function sdkClient(url: string, seed: number, clientSecret?: string): InstanceType<typeof API> {
  const credentials = seedDirectory(seed);
  return new API({
    baseUrl: url,
    accountId: credentials.accountId,
    clientId: credentials.sandbox.clientId,
    clientSecret: clientSecret ?? credentials.sandbox.clientSecret,
  });
}
