import { describe, expect, it } from 'vitest';
import { BadTransition, nextState, type UploadEvent, type UploadState } from '../../../src/upload/shared/upload-state.ts';

const walk = (events: UploadEvent[], from: UploadState = 'queued') => {
  let state: string = from;
  for (const e of events) state = nextState(state as UploadState, e);
  return state;
};

describe('upload states', () => {
  it('a small photo: checked, presigned, sent in one PUT, confirmed', () => {
    expect(walk([{ type: 'checked' }, { type: 'presigned' }, { type: 'sent', multipart: false }, { type: 'confirmed' }])).toBe('done');
  });

  it('a large photo goes through complete_upload', () => {
    expect(walk([{ type: 'checked' }, { type: 'presigned' }, { type: 'sent', multipart: true }])).toBe('completing');
    expect(walk([{ type: 'completed' }, { type: 'confirmed' }], 'completing')).toBe('done');
  });

  it('a duplicate is done without sending', () => {
    expect(walk([{ type: 'checked' }, { type: 'duplicate' }])).toBe('done');
  });

  it('not a photo: rejected at the check or at the confirmation', () => {
    expect(walk([{ type: 'refused' }])).toBe('rejected');
    expect(walk([{ type: 'refused' }], 'confirming')).toBe('rejected');
  });

  it('a sealed key skips to the confirmation; a forgotten upload starts again', () => {
    expect(walk([{ type: 'sealed' }], 'uploading')).toBe('confirming');
    expect(walk([{ type: 'gone' }], 'completing')).toBe('ready');
  });

  it('a failed file retries from where it failed, and only from a real state', () => {
    expect(walk([{ type: 'failed' }, { type: 'retry', from: 'uploading' }], 'uploading')).toBe('uploading');
    expect(() => nextState('queued', { type: 'retry', from: 'queued' })).toThrow(BadTransition);
    expect(() => nextState('failed', { type: 'retry', from: 'failed' })).toThrow(BadTransition);
  });

  it('refuses steps out of order', () => {
    expect(() => nextState('queued', { type: 'presigned' })).toThrow('an upload in state queued cannot take \'presigned\'');
    expect(() => nextState('ready', { type: 'confirmed' })).toThrow(BadTransition);
    expect(() => nextState('confirming', { type: 'sent', multipart: false })).toThrow(BadTransition);
    expect(() => nextState('failed', { type: 'failed' })).toThrow(BadTransition);
  });
});
