// The ~200-byte JSON every reference server answers (bare node:http, bare Hono, the sandbox's shape).
export const REFERENCE_ANSWER = {
  consumerid: '3f0c2a8e-5b7d-4c1e-9a6f-2d8b7e4c1a90',
  name: 'Bare server reference answer',
  email: 'bench@example.invalid',
  internal_reference: 'BENCH-0001',
  redirect_url: 'https://vendor.example/back',
};
