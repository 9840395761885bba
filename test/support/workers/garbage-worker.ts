// A broken worker for tests: answers init with invalid messages, then crashes.
process.on('message', () => {
  process.send?.({ type: 'status', status: 'dancing' });
  process.send?.({ type: 'no-such-type', payload: 'x'.repeat(10_000) });
  process.send?.('not even an object');
  process.send?.({ type: 'screenshot', png: 'not bytes', hash: 'zz', cols: 1, rows: 1 });
  setTimeout(() => {
    throw new Error('worker crashed on purpose');
  }, 100);
});
