// Daemon entry point (placeholder).
export {};
