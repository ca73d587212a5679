import { describe, expect, it } from 'vitest';
import { formatBytes, formatTimeLeft, nextSpeed, secondsLeft, startSpeed } from '../../../src/upload/shared/upload-speed.ts';

describe('upload speed and time left', () => {
  it('smooths the rate and follows a change within a few seconds', () => {
    let s = startSpeed(0);
    s = nextSpeed(s, 1000, 1_000_000);
    expect(s.bytesPerSecond).toBe(1_000_000);
    // The link halves: after one half-life the figure is half-way there.
    let bytes = 1_000_000;
    for (let t = 1250; t <= 3000; t += 250) {
      bytes += 125_000;
      s = nextSpeed(s, t, bytes);
    }
    expect(s.bytesPerSecond).toBeCloseTo(750_000, -3);
  });

  it('never goes negative when a part starts again', () => {
    const s = nextSpeed({ bytesPerSecond: 500, at: 0, bytes: 10_000 }, 1000, 2_000);
    expect(s.bytesPerSecond).toBeGreaterThanOrEqual(0);
  });

  it('says time left in words', () => {
    expect(secondsLeft(10_000_000, 1_000_000)).toBe(10);
    expect(secondsLeft(5, null)).toBeNull();
    expect(formatTimeLeft(10)).toBe('10 s left');
    expect(formatTimeLeft(125)).toBe('about 3 min left');
    expect(formatTimeLeft(3 * 3600 + 60)).toBe('about 3 h 1 min left');
    expect(formatTimeLeft(null)).toBe('');
    expect(formatBytes(999)).toBe('999 B');
    expect(formatBytes(23_400_000)).toBe('23.4 MB');
    expect(formatBytes(4_200_000_000)).toBe('4.2 GB');
  });
});
