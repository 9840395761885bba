// larkmux command (placeholder).
export {};
