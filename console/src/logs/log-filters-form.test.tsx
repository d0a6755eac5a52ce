/** @vitest-environment jsdom */
import { fireEvent, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../test/render-with-providers';
import { EMPTY_LOG_FILTERS, type LogFilters } from './log-filters';
import { LogFiltersForm } from './log-filters-form';

describe('LogFiltersForm', () => {
  it('applies every filter at once, and resets them', async () => {
    const onApply = vi.fn<(filters: LogFilters) => void>();
    renderWithProviders(
      <LogFiltersForm
        value={EMPTY_LOG_FILTERS}
        onApply={onApply}
        users={[{ value: '2', label: 'alice (#2)' }]}
        keys={[{ value: '5', label: 'ci (#5)' }]}
        channels={[{ value: '9', label: 'openai (#9)' }]}
      />,
    );
    const user = userEvent.setup({ delay: null });
    await user.selectOptions(screen.getByLabelText('User'), '2');
    await user.selectOptions(screen.getByLabelText('Key'), '5');
    await user.selectOptions(screen.getByLabelText('Channel'), '9');
    await user.selectOptions(screen.getByLabelText('Status'), 'error');
    fireEvent.change(screen.getByLabelText('Model'), { target: { value: 'gpt-4o' } });
    fireEvent.change(screen.getByLabelText('From'), { target: { value: '2025-05-01T09:30' } });
    expect(onApply).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Apply' }));
    expect(onApply).toHaveBeenLastCalledWith({
      userId: '2',
      keyId: '5',
      channelId: '9',
      model: 'gpt-4o',
      status: 'error',
      from: '2025-05-01T09:30',
      to: '',
    });
    await user.click(screen.getByRole('button', { name: 'Reset' }));
    expect(onApply).toHaveBeenLastCalledWith(EMPTY_LOG_FILTERS);
    expect(screen.getByLabelText('User')).toHaveProperty('value', '');
  });

  it('offers no user or channel filter to a user', () => {
    renderWithProviders(<LogFiltersForm value={EMPTY_LOG_FILTERS} onApply={() => undefined} keys={[]} />);
    expect(screen.queryByLabelText('User')).toBeNull();
    expect(screen.queryByLabelText('Channel')).toBeNull();
    expect(screen.getByLabelText('Key')).toBeTruthy();
  });
});
