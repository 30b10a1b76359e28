// SPDX-License-Identifier: MIT
/*
 * report.html's two writers of what it read: base64 of a figure (the
 * RFC 4648 test vectors, and every byte value) and the escaping of text.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "core/report/html_int.h"

/* What mess_h_b64 wrote, as a string; free() it. */
static char *b64(const void *buf, size_t n)
{
	char *s = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&s, &len);

	assert_non_null(f);
	mess_h_b64(f, buf, n);
	assert_int_equal(fclose(f), 0);
	return s;
}

static char *esc(const char *in)
{
	char *s = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&s, &len);

	assert_non_null(f);
	mess_h_esc(f, in);
	assert_int_equal(fclose(f), 0);
	return s;
}

static void test_b64_rfc4648(void **state)
{
	/* RFC 4648 section 10. */
	static const char *const vec[][2] = {
		{ "", "" }, { "f", "Zg==" }, { "fo", "Zm8=" }, { "foo", "Zm9v" },
		{ "foob", "Zm9vYg==" }, { "fooba", "Zm9vYmE=" },
		{ "foobar", "Zm9vYmFy" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(vec) / sizeof(vec[0]); i++) {
		char *s = b64(vec[i][0], strlen(vec[i][0]));

		assert_string_equal(s, vec[i][1]);
		free(s);
	}
}

static void test_b64_bytes(void **state)
{
	/* High bits and NUL: nothing sign-extends or stops early. */
	static const unsigned char hi[] = { 0xff, 0xfe, 0xfd, 0x00, 0x80, 0x7f, 0x00 };
	unsigned char all[256];
	char *s;

	(void)state;
	s = b64(hi, sizeof(hi));
	assert_string_equal(s, "//79AIB/AA==");
	free(s);
	for (int i = 0; i < 256; i++)
		all[i] = (unsigned char)i;
	s = b64(all, sizeof(all));
	assert_int_equal(strlen(s), 344);
	assert_memory_equal(s, "AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8g", 44);
	assert_string_equal(s + 340, "/w==");
	assert_int_equal(strspn(s, "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/="),
			 344);
	free(s);
}

static void test_esc(void **state)
{
	char *s;

	(void)state;
	s = esc("<svg onload=\"alert(1)\">'&amp;'</svg>");
	assert_string_equal(s, "&lt;svg onload=&quot;alert(1)&quot;&gt;&#39;&amp;amp;&#39;&lt;/svg&gt;");
	free(s);
	s = esc("2 × unloaded, 50 % read");
	assert_string_equal(s, "2 × unloaded, 50 % read");
	free(s);
	s = esc(NULL);
	assert_string_equal(s, "");
	free(s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_b64_rfc4648),
		cmocka_unit_test(test_b64_bytes),
		cmocka_unit_test(test_esc),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
