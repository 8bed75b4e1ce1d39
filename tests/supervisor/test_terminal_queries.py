"""The answers a detached PTY's holder gives to an agent's terminal queries (byte streams)."""

from __future__ import annotations

import pytest

from gzia.supervisor.terminal_queries import (
    MAX_HELD,
    MAX_TAIL,
    QueryFilter,
    TerminalQueries,
    without_queries,
)

ROWS, COLS = 30, 100


def _answers(*reads: bytes) -> bytes:
    queries = TerminalQueries()
    return b"".join(queries.answers(data, ROWS, COLS) for data in reads)


@pytest.mark.parametrize(("query", "answer"), [
    (b"\x1b[6n", b"\x1b[30;1R"),
    (b"\x1b[5n", b"\x1b[0n"),
    (b"\x1b[c", b"\x1b[?1;2c"),
    (b"\x1b[0c", b"\x1b[?1;2c"),
    (b"\x1b[>c", b"\x1b[>1;10;0c"),
    (b"\x1b[>0c", b"\x1b[>1;10;0c"),
    (b"\x1b[18t", b"\x1b[8;30;100t"),
    (b"\x1b[?2026$p", b"\x1b[?2026;0$y"),
    (b"\x1b[4$p", b"\x1b[4;0$y"),
    (b"\x1b]10;?\x07", b"\x1b]10;rgb:c0c0/c0c0/c0c0\x07"),
    (b"\x1b]11;?\x1b\\", b"\x1b]11;rgb:0000/0000/0000\x1b\\"),
])
def test_each_standard_query_is_answered(query: bytes, answer: bytes) -> None:
    assert _answers(b"text" + query + b"more") == answer


@pytest.mark.parametrize("query", [b"\x1b[6n", b"\x1b]11;?\x1b\\", b"\x1b[?2026$p"])
def test_a_query_split_at_every_byte_is_answered_once(query: bytes) -> None:
    whole = _answers(query)
    for cut in range(1, len(query)):
        assert _answers(b"x" + query[:cut], query[cut:] + b"y") == whole
    assert _answers(*(query[i:i + 1] for i in range(len(query)))) == whole


def test_several_queries_in_one_read_are_answered_in_order() -> None:
    assert _answers(b"\x1b[?u\x1b[6n\x1b[c\x1b[>c\x1b[5n") == (
        b"\x1b[30;1R\x1b[?1;2c\x1b[>1;10;0c\x1b[0n")


@pytest.mark.parametrize("other", [
    b"\x1b[?u",  # the kitty keyboard query: a terminal without it stays silent
    b"\x1b[31m", b"\x1b[2J", b"\x1b[?1049h", b"\x1b[6;1H", b"\x1b[?6n", b"\x1b[1c",
    b"\x1b]0;title\x07", b"\x1b]11;rgb:0/0/0\x07", b"\x1b]4;1;?\x07", b"6n", b"[c",
    b"\x1b[6 n", b"\x1b[123456$p",
])
def test_anything_else_is_not_answered(other: bytes) -> None:
    assert _answers(b"a" + other + b"b") == b""
    assert _answers(other[:2], other[2:]) == b""


def test_the_kept_tail_is_bounded() -> None:
    queries = TerminalQueries()
    long_params = b"\x1b[" + b"1;" * 40
    assert queries.answers(long_params, ROWS, COLS) == b""
    assert queries.answers(b"6n", ROWS, COLS) == b""  # no query that long is kept
    assert len(queries._tail) <= MAX_TAIL
    for _ in range(1000):  # hostile: endless unfinished sequences keep nothing more
        queries.answers(b"\x1b[" + b"9" * 100 + b"\x1b]1", ROWS, COLS)
        assert len(queries._tail) <= MAX_TAIL


def test_hostile_output_costs_no_more_than_its_length() -> None:
    queries = TerminalQueries()
    flood = b"\x1b[6n" * 50_000 + b"\x1b" * 100_000 + b"\x1b[" * 50_000
    answers = queries.answers(flood, ROWS, COLS)
    assert answers == b"\x1b[30;1R" * 50_000
    assert queries.answers(b"c", ROWS, COLS) == b"\x1b[?1;2c"  # the last ESC [ completes


def test_forget_drops_a_half_query() -> None:
    queries = TerminalQueries()
    assert queries.answers(b"\x1b[6", ROWS, COLS) == b""
    queries.forget()
    assert queries.answers(b"n", ROWS, COLS) == b""


def test_the_window_size_is_the_one_asked_with() -> None:
    queries = TerminalQueries()
    assert queries.answers(b"\x1b[6n\x1b[18t", 24, 80) == b"\x1b[24;1R\x1b[8;24;80t"


# the output a new attacher's screen is redrawn from -------------------------------------

REPLAYED_QUERIES = [
    b"\x1b[6n", b"\x1b[?6n", b"\x1b[5n", b"\x1b[?996n", b"\x1b[c", b"\x1b[0c", b"\x1b[>c",
    b"\x1b[>0c", b"\x1b[=c", b"\x1b[18t", b"\x1b[14t", b"\x1b[14;2t", b"\x1b[16t",
    b"\x1b[21t", b"\x1b[?2026$p", b"\x1b[4$p", b"\x1b[>q", b"\x1b[>0q", b"\x1b[?u",
    b"\x1b[?1;1S", b"\x1b]10;?\x07", b"\x1b]11;?\x1b\\", b"\x1b]12;?\x07", b"\x1b]4;1;?\x07",
    b"\x1b]52;c;?\x07", b"\x1bP$qm\x1b\\", b"\x1bP+q544e\x1b\\",
]


@pytest.mark.parametrize("query", REPLAYED_QUERIES)
def test_a_redrawn_screen_holds_no_query_answered_or_not(query: bytes) -> None:
    assert without_queries(b"\x1b[2Jdrawn" + query + b"\x1b[31mred" + query) == (
        b"\x1b[2Jdrawn\x1b[31mred")


DRAWING = [
    b"\x1b[2J", b"\x1b[?25h", b"\x1b[?1049h", b"\x1b[31;1m", b"\x1b[8;24;80t", b"\x1b[22;0t",
    b"\x1b[23;0t", b"\x1b[1t", b"\x1b[>1u", b"\x1b[<u", b"\x1b]0;title\x07",
    b"\x1b]8;;https://example.invalid\x1b\\", b"\x1b[?1;2c", b"\x1b[3;7H", b"\x1b[?2004h",
    b"\x1b[?1;3;256S", "ünïcode ✓".encode(), b"\x1b[6", b"\x1b]11;",
]


@pytest.mark.parametrize("sequence", DRAWING)
def test_a_redrawn_screen_keeps_everything_that_draws(sequence: bytes) -> None:
    assert without_queries(b"a" + sequence + b"b") == b"a" + sequence + b"b"


def test_removing_queries_costs_no_more_than_the_output() -> None:
    flood = (b"\x1b]4;" + b"1" * 300) * 200 + b"\x1bP+q" * 20_000 + b"\x1b[6n" * 20_000
    assert without_queries(flood) == (b"\x1b]4;" + b"1" * 300) * 200 + b"\x1bP+q" * 20_000


# raw output shown on a terminal, as it comes (session output --raw [-f]) -----------------

def _filtered(*pieces: bytes) -> bytes:
    queries = QueryFilter()
    return b"".join(queries.feed(piece) for piece in pieces) + queries.flush()


@pytest.mark.parametrize("query", REPLAYED_QUERIES)
def test_a_query_split_at_every_byte_is_taken_out(query: bytes) -> None:
    for cut in range(1, len(query)):
        queries = QueryFilter()
        assert queries.feed(b"\x1b[31ma" + query[:cut]) == b"\x1b[31ma"  # only the query held
        assert queries.feed(query[cut:] + b"b\x1b[0m") == b"b\x1b[0m"
        assert queries.flush() == b""
    assert _filtered(*(query[i:i + 1] for i in range(len(query)))) == b""


@pytest.mark.parametrize("sequence", DRAWING)
def test_what_draws_goes_out_byte_for_byte_however_it_is_cut(sequence: bytes) -> None:
    stream = b"a" + sequence + b"b"
    for cut in range(len(stream) + 1):
        assert _filtered(stream[:cut], stream[cut:]) == stream
    assert _filtered(*(stream[i:i + 1] for i in range(len(stream)))) == stream


@pytest.mark.parametrize("sequence", [b"\x1b[31m", b"\x1b[3;7H", b"\x1b]0;title\x07", b"plain",
                                      b"\x1b[?1049h", b"\x1b]8;;https://example.invalid\x1b\\"])
def test_a_finished_sequence_is_never_held(sequence: bytes) -> None:
    assert QueryFilter().feed(sequence) == sequence


def test_pieces_give_what_the_whole_gives() -> None:
    stream = (b"\x1b[?1049h\x1b[6n\x1b[2J\x1b[1;1Hhello \x1b[31mred\x1b[0m\x1b]11;?\x1b\\\r\n"
              b"\x1b]0;title\x07\x1b[c\x1b[?u\x1bP$qm\x1b\\\x1b[>q\x1b[?2026$p\x1b[3;7Hend\r\n")
    whole = (b"\x1b[?1049h\x1b[2J\x1b[1;1Hhello \x1b[31mred\x1b[0m\r\n"
             b"\x1b]0;title\x07\x1b[3;7Hend\r\n")
    assert without_queries(stream) == whole
    for first in range(len(stream) + 1):
        for second in range(first, len(stream) + 1, 7):
            assert _filtered(stream[:first], stream[first:second], stream[second:]) == whole


def test_flush_gives_back_an_unfinished_sequence_once() -> None:
    queries = QueryFilter()
    assert queries.feed(b"text\x1b[6") == b"text"
    assert queries.flush() == b"\x1b[6"
    assert queries.flush() == b""
    assert queries.feed(b"n") == b"n"  # what was given back is not completed later
    assert queries.feed(b"\x1b]11;?\x1b") == b""
    assert queries.flush() == b"\x1b]11;?\x1b"


def test_a_held_sequence_that_becomes_no_query_goes_out_whole() -> None:
    queries = QueryFilter()
    assert queries.feed(b"\x1b[3") == b""
    assert queries.feed(b"1m") == b"\x1b[31m"
    assert queries.feed(b"\x1b]0;ti") == b""
    assert queries.feed(b"tle\x07x") == b"\x1b]0;title\x07x"
    assert queries.feed(b"\x1bP") == b""
    assert queries.feed(b"q#0;2;0;0;0\x1b\\") == b"\x1bPq#0;2;0;0;0\x1b\\"  # sixel, no query


def test_what_is_held_is_bounded_and_long_sequences_go_out() -> None:
    queries = QueryFilter()
    long_params = b"\x1b[" + b"1;" * 400
    out = b"".join(queries.feed(long_params[i:i + 1]) for i in range(len(long_params)))
    assert len(queries._held) <= MAX_HELD
    assert out + queries.flush() == long_params
    title = b"\x1b]0;" + b"t" * 1000
    out = b""
    for i in range(len(title)):
        out += queries.feed(title[i:i + 1])
        assert len(queries._held) <= MAX_HELD
    assert out + queries.flush() == title
    out = b""
    for _ in range(1000):  # hostile: endless unfinished sequences keep nothing more
        out += queries.feed(b"\x1b[" + b"9" * 100 + b"\x1b]1")
        assert len(queries._held) <= MAX_HELD
    assert out + queries.flush() == (b"\x1b[" + b"9" * 100 + b"\x1b]1") * 1000


def test_a_flood_is_filtered_in_pieces_without_holding_more() -> None:
    flood = (b"\x1b[6n" * 20_000 + b"\x1b" * 50_000 + b"\x1b[" * 20_000
             + (b"\x1b]4;" + b"1" * 300) * 100 + b"\x1b[31mred" * 10_000)
    queries = QueryFilter()
    out = b""
    for at in range(0, len(flood), 4096):
        out += queries.feed(flood[at:at + 4096])
        assert len(queries._held) <= MAX_HELD
    assert out + queries.flush() == without_queries(flood)
