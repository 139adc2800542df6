/**
 * Which methods of an SDK module a test file calls: the file wraps every module object it uses in
 * `track`, and its afterAll checks that no method of the module's factory was left out, whatever
 * order its tests ran in.
 */
export function methodTracker() {
  const called = new Set<string>();
  // biome-ignore lint/suspicious/noExplicitAny: the SDK's module objects are typed loosely
  const track = (module: any) =>
    new Proxy(module, {
      get(target, name, receiver) {
        const value = Reflect.get(target, name, receiver);
        if (typeof name === 'string' && typeof value === 'function') called.add(name);
        return value;
      },
    });
  const missing = (factory: object) => Object.keys(factory).filter((name) => !called.has(name));
  return { track, missing };
}
