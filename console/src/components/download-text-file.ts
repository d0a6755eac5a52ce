/**
 * Hands a text made in the page to the browser as a file download: a Blob behind a temporary
 * link, so nothing is sent to the gateway again (what it showed once stays in this page only).
 */
export function downloadTextFile(options: { fileName: string; text: string; mediaType: string }): void {
  const url = URL.createObjectURL(new Blob([options.text], { type: options.mediaType }));
  const link = document.createElement('a');
  link.href = url;
  link.download = options.fileName;
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // The browser reads the Blob after this task ends: revoking at once could cancel the download.
  window.setTimeout(() => URL.revokeObjectURL(url), 60_000);
}
