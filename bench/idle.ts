// Benchmark (issue 14, worker side): what idle sessions cost and worker memory (see support/idle-measure.ts; the same
// numbers are part of `bench -- scale`). Prints one JSON object on stdout.
import { measureIdle } from './support/idle-measure.js';

measureIdle().then((result) => {
  process.stdout.write(JSON.stringify(result) + '\n');
  process.exit(0);
}, (err: unknown) => {
  process.stderr.write(`bench idle failed: ${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
