import type { Language } from '../errors/catalogue.js';

/** Picks `zh-CN` or `en` from an `Accept-Language` header by quality; English when neither is asked for. */
export function negotiateLanguage(header: string | undefined): Language {
  if (!header) return 'en';
  let best: { language: Language; quality: number } | undefined;
  for (const part of header.split(',')) {
    const [tag = '', ...parameters] = part.trim().toLowerCase().split(';');
    const qualityParameter = parameters.find((parameter) => parameter.trim().startsWith('q='));
    const quality = qualityParameter ? Number(qualityParameter.trim().slice(2)) : 1;
    if (!(quality > 0)) continue;
    const language: Language | undefined = tag.startsWith('zh')
      ? 'zh-CN'
      : tag.startsWith('en')
        ? 'en'
        : undefined;
    if (language && (!best || quality > best.quality)) best = { language, quality };
  }
  return best?.language ?? 'en';
}
