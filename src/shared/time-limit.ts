/**
 * `work`, or what `timeUp` gives (or throws) when `work` has not settled within `ms`. The timer is cleared
 * either way; `work` itself is not stopped.
 */
export async function raceTimeLimit<T, L>(work: Promise<T>, ms: number, timeUp: () => L): Promise<T | L> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<L>((resolve, reject) => {
    timer = setTimeout(() => {
      try {
        resolve(timeUp());
      } catch (error) {
        reject(error);
      }
    }, ms);
  });
  try {
    return await Promise.race([work, late]);
  } finally {
    clearTimeout(timer);
  }
}
