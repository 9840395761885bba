// A vitest reporter that names every retried test at the end of the run, so a retry never hides a failure silently.
import type { Reporter, TestCase, TestModule } from 'vitest/node';

/**
 * Only the real-CLI project retries (third-party start-up timing, see vitest.config.ts). Each test that needed a
 * retry is printed as `RETRIED: <file> > <test> (<outcome> after N retries)` plus the first attempt's error, so CI
 * output shows it even when the retry passed.
 */
export default class RetryReporter implements Reporter {
  private readonly retried: TestCase[] = [];

  onTestCaseResult(testCase: TestCase): void {
    if (testCase.diagnostic()?.retryCount) this.retried.push(testCase);
  }

  onTestRunEnd(_modules: ReadonlyArray<TestModule>): void {
    if (this.retried.length === 0) return;
    const lines = this.retried.map((t) => {
      const d = t.diagnostic()!;
      const outcome = t.result().state === 'passed' ? 'passed' : 'failed';
      const first = t.result().errors?.[0]?.message?.split('\n')[0] ?? '';
      return `RETRIED: ${t.module.relativeModuleId} > ${t.fullName} (${outcome} after ${d.retryCount} ${d.retryCount === 1 ? 'retry' : 'retries'})${first ? ` — ${first}` : ''}`;
    });
    process.stdout.write(`\n${lines.join('\n')}\n`);
  }
}
