"""What the bot needs in a channel or a thread, and what a permissions value lacks."""

from __future__ import annotations

import discord

from bot.i18n import LOCALES, t
from bot.ui.permissions import IN_CHANNEL, IN_THREAD, INVITE, NAME_KEYS, missing, needed


def test_a_thread_needs_send_messages_in_threads_instead_of_send_messages():
    assert needed(in_thread=False) == discord.Permissions(
        view_channel=True,
        send_messages=True,
        embed_links=True,
        attach_files=True,
        read_message_history=True,
    )
    in_thread = needed(in_thread=True)
    assert in_thread.send_messages_in_threads and not in_thread.send_messages
    assert needed(in_thread=False) | in_thread == INVITE


def test_the_invite_asks_for_the_six_permissions_by_discord_s_bits():
    bits = (1 << 10) | (1 << 11) | (1 << 14) | (1 << 15) | (1 << 16) | (1 << 38)
    assert INVITE.value == bits == 274878024704


def test_missing_names_what_is_lacking_in_a_fixed_order():
    granted = discord.Permissions(view_channel=True, embed_links=True)
    assert missing(granted, in_thread=False) == (
        "send_messages",
        "attach_files",
        "read_message_history",
    )
    assert missing(granted, in_thread=True) == (
        "send_messages_in_threads",
        "attach_files",
        "read_message_history",
    )
    assert missing(needed(in_thread=False), in_thread=False) == ()


def test_values_discord_py_may_hold_do_not_break_the_check():
    # Every bit set as Python reads a negative number, bits Discord has not named yet.
    assert missing(discord.Permissions(-1), in_thread=False) == ()
    assert missing(discord.Permissions((1 << 80) | INVITE.value), in_thread=True) == ()
    assert missing(discord.Permissions(1 << 80), in_thread=False) == IN_CHANNEL


def test_every_permission_has_its_name_in_every_language():
    assert set(NAME_KEYS) == {*IN_CHANNEL, *IN_THREAD}
    for locale in LOCALES:
        names = {t(key, locale) for key in NAME_KEYS.values()}
        assert len(names) == 6, locale
