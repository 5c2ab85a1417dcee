/**
 * The PNG renderer needs DejaVu Sans on disk. Without it resvg would silently substitute a serif
 * face (or draw no text at all), so rendering stops with this error instead.
 */
import { BrandscapeError } from '../errors.js';

/** The Debian package that installs the fonts `renderPng` loads. */
export const FONT_PACKAGE = 'fonts-dejavu-core';

/**
 * A font file `renderPng` needs is missing.
 *
 * @example
 * try {
 *   await renderPng(spec);
 * } catch (error) {
 *   if (error instanceof FontMissingError) console.error(error.fontFile, error.debianPackage);
 * }
 */
export class FontMissingError extends BrandscapeError {
  override name = 'FontMissingError';
  /** The face that is missing, e.g. `DejaVu Sans Bold`. */
  readonly font: string;
  /** The path that was looked for. */
  readonly fontFile: string;
  readonly debianPackage: string = FONT_PACKAGE;

  constructor(font: string, fontFile: string) {
    super('font_missing', `The font ${font} is missing: ${fontFile} does not exist, and charts are rendered with it so that the same spec gives the same image.`, {
      hint: `Install the Debian package ${FONT_PACKAGE} (apt-get install ${FONT_PACKAGE}), or pass the font files' paths in the 'fonts' option.`,
    });
    this.font = font;
    this.fontFile = fontFile;
  }
}
