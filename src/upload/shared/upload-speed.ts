/**
 * Speed and time left, as a person reads them: an exponential moving average of the byte rate
 * (Uppy's status bar uses the same, half-life 2 s), so the figure neither jumps with each
 * progress event nor lags a change of network by minutes.
 */

/** Half the weight of the speed figure is the last 2 seconds. */
export const SPEED_HALF_LIFE_MS = 2_000;

export interface SpeedSample {
  /** Bytes per second, smoothed; null until a first interval was seen. */
  bytesPerSecond: number | null;
  at: number;
  bytes: number;
}

export const startSpeed = (now: number, bytes = 0): SpeedSample => ({ bytesPerSecond: null, at: now, bytes });

/** Folds the bytes sent since the last sample into the smoothed speed. */
export function nextSpeed(prev: SpeedSample, now: number, bytes: number, halfLifeMs = SPEED_HALF_LIFE_MS): SpeedSample {
  const dt = now - prev.at;
  if (dt <= 0) return { ...prev, bytes };
  // A retry may restart a part: progress going backwards is not a negative speed.
  const rate = (Math.max(0, bytes - prev.bytes) * 1000) / dt;
  if (prev.bytesPerSecond === null) return { bytesPerSecond: rate, at: now, bytes };
  const keep = 0.5 ** (dt / halfLifeMs);
  return { bytesPerSecond: prev.bytesPerSecond * keep + rate * (1 - keep), at: now, bytes };
}

/** Seconds left for `remaining` bytes at the smoothed speed; null when unknown. */
export function secondsLeft(remaining: number, bytesPerSecond: number | null): number | null {
  if (remaining <= 0) return 0;
  if (!bytesPerSecond || bytesPerSecond < 1) return null;
  return remaining / bytesPerSecond;
}

export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${Math.round(bytes)} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${value >= 100 ? Math.round(value) : value.toFixed(1)} ${units[unit]}`;
}

export const formatSpeed = (bytesPerSecond: number | null) => (bytesPerSecond === null ? '' : `${formatBytes(bytesPerSecond)}/s`);

/** "about 3 min left", "12 s left"; empty when unknown. */
export function formatTimeLeft(seconds: number | null): string {
  if (seconds === null || !Number.isFinite(seconds)) return '';
  if (seconds < 1) return 'almost done';
  if (seconds < 60) return `${Math.ceil(seconds)} s left`;
  if (seconds < 3600) return `about ${Math.ceil(seconds / 60)} min left`;
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.ceil((seconds % 3600) / 60);
  return `about ${hours} h ${minutes} min left`;
}
