/** @vitest-environment jsdom */
import { fireEvent, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { Channel } from '../api/types';
import { renderWithProviders } from '../test/render-with-providers';
import { ChannelForm, type ChannelSubmission } from './channel-form';

/** Sets a field's whole text at once, as a browser test's `fill` does: faster than typing it. */
function fill(label: string | RegExp, text: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value: text } });
}

function renderForm(channel?: Channel) {
  const onSubmit = vi.fn<(submission: ChannelSubmission) => void>();
  renderWithProviders(
    <ChannelForm
      {...(channel ? { channel } : {})}
      pending={false}
      error={null}
      onSubmit={onSubmit}
      onCancel={() => undefined}
    />,
  );
  return { onSubmit, user: userEvent.setup({ delay: null }) };
}

describe('ChannelForm', () => {
  it('creates an OpenAI channel with its keys, models and mapping', async () => {
    const { onSubmit, user } = renderForm();
    fill(/^Name/, 'main');
    fill('Key 1', 'sk-upstream');
    fill(/^Models/, 'gpt-4o, gpt-4o-mini');
    await user.click(screen.getByRole('button', { name: 'Add mapping' }));
    fill('Public model 1', 'gpt-4o');
    fill('Upstream model 1', 'gpt-4o-2024-11-20');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(onSubmit).toHaveBeenCalledWith({
      kind: 'create',
      fields: {
        name: 'main',
        type: 'openai',
        base_url: null,
        keys: ['sk-upstream'],
        models: ['gpt-4o', 'gpt-4o-mini'],
        model_mapping: { 'gpt-4o': 'gpt-4o-2024-11-20' },
        groups: ['default'],
        priority: 0,
        weight: 1,
        endpoints: null,
        status: 'enabled',
        config: {},
      },
    });
  });

  it('asks Bedrock for its region and sends it in config', async () => {
    const { onSubmit, user } = renderForm();
    await user.selectOptions(screen.getByLabelText('Channel type'), 'bedrock');
    fill(/^Name/, 'aws');
    fill('Key 1', 'AKIA:secret');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(onSubmit).not.toHaveBeenCalled();
    expect(screen.getByLabelText(/^Region/)).toHaveProperty('required', true);
    expect(screen.getByText('Required')).toBeTruthy();
    fill(/^Region/, 'us-east-1');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(onSubmit.mock.calls[0]?.[0]).toMatchObject({
      kind: 'create',
      fields: { type: 'bedrock', keys: ['AKIA:secret'], config: { region: 'us-east-1' } },
    });
  });

  it('gives Vertex its three settings, leaves empty ones to the defaults, and takes JSON keys', async () => {
    const { onSubmit, user } = renderForm();
    await user.selectOptions(screen.getByLabelText('Channel type'), 'vertex');
    expect(screen.getByLabelText(/^Region/)).toBeTruthy();
    expect(screen.getByLabelText(/^Project/)).toBeTruthy();
    expect(screen.getByLabelText(/^Token URL/)).toBeTruthy();
    expect(screen.getByLabelText('Key 1').tagName).toBe('TEXTAREA');
    fill(/^Name/, 'vertex');
    fill(/^Project/, 'my-project');
    await user.click(screen.getByLabelText('Key 1'));
    await user.paste('{"type": "service_account",\n"project_id": "p"}');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(onSubmit.mock.calls[0]?.[0]).toMatchObject({
      fields: {
        type: 'vertex',
        keys: ['{"type": "service_account",\n"project_id": "p"}'],
        config: { project: 'my-project' },
      },
    });
  });

  it('requires a base URL for Azure and lets Ollama run without a key', async () => {
    const { onSubmit, user } = renderForm();
    await user.selectOptions(screen.getByLabelText('Channel type'), 'azure');
    fill(/^Name/, 'az');
    fill('Key 1', 'k');
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(screen.getByText(/Required for this type/)).toBeTruthy();
    await user.selectOptions(screen.getByLabelText('Channel type'), 'ollama');
    await user.clear(screen.getByLabelText('Key 1'));
    await user.click(screen.getByRole('button', { name: 'Create' }));
    await waitFor(() =>
      expect(onSubmit.mock.calls[0]?.[0]).toMatchObject({ fields: { type: 'ollama', keys: [], config: {} } }),
    );
  });

  it('offers the audio and realtime endpoint types by name and sends the chosen ones', async () => {
    const { onSubmit, user } = renderForm();
    fill(/^Name/, 'audio');
    fill('Key 1', 'sk-upstream');
    fill(/^Models/, 'tts-1');
    await user.click(screen.getByLabelText('Override endpoint types'));
    expect(screen.getByLabelText('Transcription (audio-transcription)')).toBeTruthy();
    expect(screen.getByLabelText('Realtime (realtime)')).toBeTruthy();
    await user.click(screen.getByLabelText('Speech (audio-speech)'));
    await user.click(screen.getByRole('button', { name: 'Create' }));
    expect(onSubmit.mock.calls[0]?.[0]).toMatchObject({
      kind: 'create',
      fields: { name: 'audio', models: ['tts-1'], endpoints: ['audio-speech'] },
    });
  });

  it('names the audio and realtime endpoint types in Chinese', async () => {
    renderWithProviders(
      <ChannelForm pending={false} error={null} onSubmit={() => undefined} onCancel={() => undefined} />,
      { language: 'zh-CN' },
    );
    await userEvent.setup({ delay: null }).click(screen.getByLabelText('覆盖端点类型'));
    for (const label of ['语音合成 (audio-speech)', '语音转写 (audio-transcription)', '实时语音 (realtime)'])
      expect(screen.getByLabelText(label)).toBeTruthy();
  });

  it('edits a channel: only changed fields, the stored keys kept unless replaced', async () => {
    const channel: Channel = {
      id: 4,
      name: 'vertex-eu',
      type: 'vertex',
      base_url: 'https://europe-west4-aiplatform.googleapis.com',
      keys: ['{"ty...ail"}'],
      models: ['gemini-2.5-pro'],
      model_mapping: {},
      groups: ['default'],
      priority: 0,
      weight: 1,
      endpoints: null,
      status: 'enabled',
      config: { region: 'europe-west4' },
      created_at: 0,
      managed: 'api',
    };
    const { onSubmit, user } = renderForm(channel);
    expect(screen.getByLabelText(/^Base URL/)).toHaveProperty('value', '');
    expect(screen.queryByLabelText('Key 1')).toBeNull();
    await user.clear(screen.getByLabelText(/^Priority/));
    fill(/^Priority/, '5');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSubmit).toHaveBeenCalledWith({ kind: 'update', id: 4, changes: { priority: 5 } });
    await user.click(screen.getByLabelText('Replace the stored keys'));
    fill('Key 1', 'new-key');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSubmit).toHaveBeenLastCalledWith({
      kind: 'update',
      id: 4,
      changes: { priority: 5, keys: ['new-key'] },
    });
  });
});
