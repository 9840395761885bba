// Entry point of the fake Feishu open platform used by integration and e2e tests.
export * from './fake-feishu.js';
export { CODES, PLATFORM_LIMITS } from './validate.js';
export { decodeFrame, encodeFrame, type Frame } from './pbbp2.js';
export { CARDKIT_CODES, CARDKIT_LIMITS, type FakeCardEntity } from './cardkit.js';
export { FakeAccounts, decodeAddons, type FakeAccountsOptions, type Registration } from './accounts.js';
