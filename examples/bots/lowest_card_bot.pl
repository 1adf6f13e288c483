#!/usr/bin/env perl
# A bot for troef in Perl 5 (core modules only), for any game.
#
# It speaks the bot protocol of docs/PROTOCOL.md: one JSON object per line on
# stdin (start, act, end, quit) and one JSON line on stdout per start
# ("ready") and per act ("action"). It plays the first legal card of the
# lowest rank it holds, reading cards by the rule of docs/CARDS.md (the suit is
# the last character, the rank everything before it); a move that is not a
# plain card (a bid, a declaration) it picks at random, seeded by the seed the
# harness sends, so the same seed gives the same play.
#
#     perl examples/bots/lowest_card_bot.pl
#
# Logging goes to stderr: stdout carries only protocol lines.
use strict;
use warnings;
use JSON::PP;

$| = 1;    # every answer leaves at once
my $json = JSON::PP->new->canonical;
my @low_to_high = qw(1 2 3 4 5 6 7 8 9 10 T J N Q K A);
my %rank_of;
@rank_of{@low_to_high} = (0 .. $#low_to_high);

sub card_rank {
    my ($move) = @_;
    return undef unless $move =~ /\A(10|1[0-9]|2[01]|[2-9TJNQKA1])([CDHST])\z/;
    return $2 eq 'T' ? 100 + $1 : $rank_of{$1};    # a tarot trump ranks by number
}

sub send_message { print $json->encode($_[0]), "\n" }

while (my $line = <STDIN>) {
    my $message = eval { $json->decode($line) };
    if (!$message) {
        send_message({ type => 'error', message => "not JSON: $@" });
        next;
    }
    my $type = $message->{type} // '';
    if ($type eq 'start') {
        if (($message->{protocol} // 0) != 1) {
            send_message({ type => 'error', message => 'only protocol 1' });
            next;
        }
        srand($message->{seed} % 4294967296);
        send_message({ type => 'ready', protocol => 1, name => 'lowest-card.pl' });
    }
    elsif ($type eq 'act') {
        my @legal = @{ $message->{view}{legal_actions} };
        my @cards = grep { defined card_rank($_) } @legal;
        my $move;
        if (@cards) {
            ($move) = sort { card_rank($a) <=> card_rank($b) } @cards;
        }
        else {
            $move = $legal[ int(rand(@legal)) ];
        }
        send_message({ type => 'action', action => $move });
    }
    elsif ($type eq 'quit') {
        last;
    }
    # "end" needs no answer; unknown types are ignored, as the protocol allows
}
