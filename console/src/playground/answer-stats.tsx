import { Loader, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';
import { formatCount } from '../format/format-number';
import { formatUsd } from '../format/format-usd';
import type { AssistantEntry } from './playground-entry';

/**
 * Under an answer: its tokens and what it cost, from its usage record (what the balance was
 * charged); the stream's own usage until the record is found.
 */
export function AnswerStats({ entry }: { entry: AssistantEntry }) {
  const { t, i18n } = useTranslation();
  if (entry.state === 'streaming') return null;
  const tokens =
    entry.cost.kind === 'found'
      ? { input: entry.cost.promptTokens, output: entry.cost.completionTokens }
      : entry.usage && { input: entry.usage.promptTokens, output: entry.usage.completionTokens };
  const parts: string[] = [];
  if (tokens) {
    parts.push(
      t('playground.tokens', {
        input: formatCount(tokens.input, i18n.language),
        output: formatCount(tokens.output, i18n.language),
      }),
    );
  }
  if (entry.cost.kind === 'found') parts.push(t('playground.cost', { cost: formatUsd(entry.cost.cost) }));
  if (entry.cost.kind === 'unknown' && entry.state !== 'failed') parts.push(t('playground.costUnknown'));
  return (
    <Text size="xs" c="dimmed" data-testid="answer-stats">
      {entry.cost.kind === 'looking' && (
        <Loader size={10} mr={6} aria-label={t('playground.lookingUpCost')} />
      )}
      {entry.cost.kind === 'looking' && parts.length === 0
        ? t('playground.lookingUpCost')
        : parts.join(' · ')}
    </Text>
  );
}
