// Counts the event loop's turns: one immediate a turn, each scheduling the next until stopped.
export function turnCounter(): { now: () => number; stop: () => void } {
  let turn = 0;
  let running = true;
  const tick = () => {
    turn++;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  return {
    now: () => turn,
    stop: () => {
      running = false;
    },
  };
}
