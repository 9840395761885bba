// Worker entry point: wired in issue 2 (placeholder until then).
export {};
