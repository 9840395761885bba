// A hung worker for tests: answers init once, then blocks its event loop forever (alive, but never heard from again).
process.on('message', () => {
  process.send?.({ type: 'status', status: 'starting' }, () => {
    for (;;) {
      // spin: no heartbeat will ever be sent
    }
  });
});
