// Races work against a timer: whoever needs an answer in time (a control request, a file read, an event's ACK) gets
// the work's result, or the late value once the deadline passes; the timer never outlives the race.

/**
 * The work's result (or its rejection) if it settles within `ms`; otherwise `onLate()`'s value, called as the timer
 * fires. The work is not stopped: a caller that gives up on it says so itself (an abort signal, a flag set in `onLate`).
 */
export async function withDeadline<T, L>(work: Promise<T>, ms: number, onLate: () => L): Promise<T | L> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<L>((resolve) => {
    timer = setTimeout(() => resolve(onLate()), ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
