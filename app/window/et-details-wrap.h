/* et-details-wrap.h — how the details pane's lines wrap.
 *
 *   et-details.c's text ─ et_details_wrap_soften (break chances after
 *   punctuation) ─ the text view ─ et_details_wrap_hang (each line's
 *   continuation under its value, kept clear of a narrow pane's edge)
 *   copy, get_text ─ et_details_wrap_plain (the text as it was)
 *
 * Long values (a method signature, a type name, a GUID) wrap at spaces and
 * punctuation, under themselves, never one character per line.
 */
#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* The least characters a wrapped value keeps per line: where the value's
 * column leaves less room, its continuation starts further left. */
#define ET_DETAILS_MIN_VALUE_CHARS 24

/* @text with a zero-width space after the punctuation inside values (. ,
 * ) ] / \ : ; = _ - + | > }; not a decimal point or a thousands comma
 * between digits) and before an opening bracket, where a line may then
 * break (transfer full). */
char *et_details_wrap_soften (const char *text);
/* @text without the zero-width spaces soften added (transfer full). */
char *et_details_wrap_plain  (const char *text);
/* Tags every line of @view's buffer (@text, without zero-width spaces) to
 * wrap with a hanging indent at its value's column, or further left when
 * that leaves less than ET_DETAILS_MIN_VALUE_CHARS in @view's width. */
void  et_details_wrap_hang   (GtkTextView *view,
                              const char  *text);

G_END_DECLS
