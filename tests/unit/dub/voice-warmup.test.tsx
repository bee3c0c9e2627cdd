import { signal } from '@preact/signals-react';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, test } from 'vitest';
import { writeToken } from '../../../src/api/token';
import { VoiceWarmup } from '../../../src/app/features/dub/voice-warmup';
import { setLang } from '../../../src/app/i18n';
import { type FixtureServer, json, movePageTo, startFixtureServer } from '../api/fixture-server';

let server: FixtureServer;
beforeAll(async () => {
  server = await startFixtureServer();
  movePageTo(server.origin);
});
afterAll(() => server.close());
beforeEach(() => {
  setLang('en');
  writeToken('tok-1');
});
afterEach(() => {
  server.reset();
  setLang('zh');
});

/** The AI service's warm-up state, and what a skip answers. */
function serve(status: 'none' | 'recorded' | 'skipped' | 'known') {
  server.handle((req, res) => {
    if (req.url.pathname.endsWith('/voice_warmup_skip'))
      return json(res, { code: 200, msg: 'ok', data: { status: 'skipped' } });
    if (req.url.pathname.endsWith('/voice_warmup'))
      return json(res, { code: 200, msg: 'ok', data: { status } });
    return json(res, { code: 404, msg: 'not found', data: null }, 404);
  });
}

describe('the voice warm-up before the first dub', () => {
  test('offered while never answered: the neutral line, and skipping it says the first takes are read cold', async () => {
    serve('none');
    render(<VoiceWarmup busy={signal(false)} />);
    expect(await screen.findByTestId('voice-warmup')).toBeInTheDocument();
    expect(screen.getByText(/calmly and clearly/)).toBeInTheDocument();
    fireEvent.click(screen.getByTestId('voice-warmup-skip'));
    expect(
      await screen.findByText('Skipped: your first takes are compared with voices in general.'),
    ).toBeInTheDocument();
    await server.waitForRequests(2);
    const skip = server.seen.find((r) => r.url.pathname.endsWith('/voice_warmup_skip'));
    expect(skip?.method).toBe('POST');
    expect(skip?.url.pathname).toBe('/ai/voice_warmup_skip');
  });

  test.each(['recorded', 'skipped', 'known'] as const)('not offered once %s', async (status) => {
    serve(status);
    const told: string[] = [];
    const { container } = render(<VoiceWarmup busy={signal(false)} onStatus={(s) => told.push(s)} />);
    await waitFor(() => expect(told).toEqual([status]));
    expect(server.seen[0].url.pathname).toBe('/ai/voice_warmup');
    expect(container).toBeEmptyDOMElement();
  });

  test('recording waits while a dub take holds the microphone', async () => {
    serve('none');
    render(<VoiceWarmup busy={signal(true)} />);
    expect(await screen.findByTestId('voice-warmup-record')).toBeDisabled();
  });
});
