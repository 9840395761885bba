// Moved to src/platform/pid-lock.ts (the CLI needs it too, and must not import the daemon). TODO(issue 11): import it from there.
export * from '../platform/pid-lock.js';
