// A tournament page's countdown: the time to its start or end, counted down each second from the
// referee's own figure (data-left-ms), so this browser's clock does not matter. At zero the page
// is read again: the tournament has started, or ended (and its standings are then final).
const line = document.getElementById("countdown");
const shown = line?.querySelector("[data-countdown]");

function clock(seconds) {
  const days = Math.floor(seconds / 86400);
  const hours = Math.floor(seconds / 3600) % 24;
  const minutes = Math.floor(seconds / 60) % 60;
  const rest = seconds % 60;
  const pad = (n) => String(n).padStart(2, "0");
  return days ? `${days} day${days === 1 ? "" : "s"} ${hours} h` : `${hours ? `${hours}:` : ""}${pad(minutes)}:${pad(rest)}`;
}

if (shown) {
  const ends = performance.now() + Number(line.dataset.leftMs);
  const tick = () => {
    const left = Math.max(0, Math.ceil((ends - performance.now()) / 1000));
    shown.textContent = clock(left);
    if (left === 0) {
      clearInterval(timer);
      setTimeout(() => window.location.reload(), 1500);
    }
  };
  const timer = setInterval(tick, 1000);
  tick();
}
