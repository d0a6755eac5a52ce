import { Button, Group, Textarea } from '@mantine/core';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';

/** The next question: sent with the button or Ctrl/⌘+Enter; while an answer streams, Stop ends it. */
export function QuestionForm({
  disabled,
  streaming,
  onSend,
  onStop,
}: {
  disabled: boolean;
  streaming: boolean;
  onSend: (text: string) => void;
  onStop: () => void;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const submit = () => {
    if (disabled || streaming || text.trim() === '') return;
    onSend(text);
    setText('');
  };
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <Textarea
        label={t('playground.message')}
        description={t('playground.messageHint')}
        autosize
        minRows={2}
        maxRows={10}
        value={text}
        onChange={(event) => setText(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
            event.preventDefault();
            submit();
          }
        }}
      />
      <Group justify="flex-end" mt="xs">
        {streaming ? (
          <Button color="red" variant="light" onClick={onStop}>
            {t('playground.stop')}
          </Button>
        ) : (
          <Button type="submit" disabled={disabled || text.trim() === ''}>
            {t('playground.send')}
          </Button>
        )}
      </Group>
    </form>
  );
}
