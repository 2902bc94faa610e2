package io.linkwatch.peer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.linkwatch.peer.PeerSchedule.Member;
import io.linkwatch.peer.PeerSchedule.Pair;
import io.linkwatch.peer.PeerSchedule.Tier;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeSet;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** The leaderless schedule, pure: no network, no clock but the round numbers. */
class PeerScheduleTest {
  private static List<Member> hosts(int n) {
    List<Member> out = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      out.add(new Member(String.format("h%03d:10187", i), null));
    }
    return out;
  }

  private static TreeSet<String> allPairs(List<Member> members) {
    TreeSet<String> out = new TreeSet<>();
    for (Member a : members) {
      for (Member b : members) {
        if (a.host().compareTo(b.host()) < 0) {
          out.add(a.host() + " " + b.host());
        }
      }
    }
    return out;
  }

  @Test
  void everyPairIsProbedOnceInNMinusOneRoundsForTwoToTwoHundredMembers() {
    for (int n = 2; n <= 200; n++) {
      List<Member> members = hosts(n);
      // Shuffled: every agent sorts the list, whatever order it learnt it in.
      Collections.shuffle(members, new Random(n));
      PeerSchedule plan = PeerSchedule.of(members, Duration.ofSeconds(60), 1000);
      assertThat(plan.coverRounds()).isEqualTo(n - 1);
      long from = 7_000_000L + n; // any round: a cover is any n - 1 consecutive rounds
      List<String> probed = new ArrayList<>();
      for (long r = from; r < from + n - 1; r++) {
        for (Pair p : plan.pairs(r)) {
          assertThat(p.prober()).as("the prober sorts first").isLessThan(p.responder());
          probed.add(p.prober() + " " + p.responder());
        }
        Map<String, Integer> partners = new HashMap<>();
        plan.pairs(r)
            .forEach(
                p -> {
                  partners.merge(p.prober(), 1, Integer::sum);
                  partners.merge(p.responder(), 1, Integer::sum);
                });
        assertThat(Collections.max(partners.values()))
            .as("partners a member has in round %d of %d members", r, n)
            .isLessThanOrEqualTo(n % 2 == 0 ? 1 : 2);
      }
      assertThat(probed).as("pairs probed over a cover of %d members", n).hasSize(n * (n - 1) / 2);
      assertThat(new TreeSet<>(probed)).isEqualTo(allPairs(members));
    }
  }

  @Test
  void noMemberTakesPartInMoreProbesAnHourThanItsBudget() {
    for (int n : new int[] {2, 3, 16, 17, 64, 199}) {
      for (int budget : new int[] {4, 5, 12, 60, 400}) {
        List<Member> members = hosts(n);
        // a third of them under two switches: they also run their own circles
        for (int i = 0; i < n / 3; i++) {
          members.set(i, new Member(members.get(i).host(), i % 2 == 0 ? "tor-a" : "tor-b"));
        }
        PeerSchedule plan = PeerSchedule.of(members, Duration.ofSeconds(30), budget);
        long seconds = plan.roundLength().toSeconds();
        // Every hour-long window starting at a round start, over three hours.
        long first = 5_000_000L;
        long rounds = 3 * 3600 / seconds + 2;
        for (long w = first; w < first + rounds; w++) {
          Map<String, Integer> taken = new HashMap<>();
          for (long r = w;
              plan.start(r).getEpochSecond() < plan.start(w).getEpochSecond() + 3600;
              r++) {
            for (Pair p : plan.pairs(r)) {
              taken.merge(p.prober(), 1, Integer::sum);
              taken.merge(p.responder(), 1, Integer::sum);
            }
          }
          assertThat(taken.values())
              .as("probes a member takes part in within an hour: %d members, budget %d", n, budget)
              .allSatisfy(count -> assertThat(count).isLessThanOrEqualTo(budget));
        }
      }
    }
  }

  @Test
  void membersUnderOneSwitchAlsoProbeEachOtherEveryRound() {
    List<Member> members = hosts(12);
    for (int i = 0; i < 4; i++) {
      members.set(i, new Member(members.get(i).host(), "tor-7"));
    }
    PeerSchedule plan = PeerSchedule.of(members, Duration.ofSeconds(60), 1000);
    // Four members under tor-7: their own circle covers their 6 pairs in 3 rounds, while the
    // fabric's covers its 66 in 11.
    TreeSet<String> underTor = new TreeSet<>();
    for (long r = 0; r < 3; r++) {
      plan.pairs(r).stream()
          .filter(p -> p.tier() == Tier.TOR)
          .forEach(p -> underTor.add(p.prober() + " " + p.responder()));
      assertThat(plan.pairs(r)).as("no pair twice in a round").doesNotHaveDuplicates();
    }
    TreeSet<String> torPairs = allPairs(members.subList(0, 4));
    // A switch pair the fabric's circle also holds that round is probed once, as the fabric's.
    TreeSet<String> seen = new TreeSet<>(underTor);
    seen.addAll(plan.covered(0, 3).stream().filter(torPairs::contains).toList());
    assertThat(seen).isEqualTo(torPairs);
    assertThat(plan.covered(0, 11)).isEqualTo(allPairs(members));
  }

  @Test
  void twoViewsOneMemberApartCoverTheSamePairsAndNeverStormAMember() {
    List<Member> members = hosts(40);
    for (int missing : new int[] {0, 17, 39}) {
      List<Member> fewer = new ArrayList<>(members);
      String gone = fewer.remove(missing).host();
      PeerSchedule all = PeerSchedule.of(members, Duration.ofSeconds(60), 1000);
      PeerSchedule partial = PeerSchedule.of(fewer, Duration.ofSeconds(60), 1000);
      // Over a cover of each, the pairs without the member they disagree on are the same.
      TreeSet<String> a = all.covered(100, all.coverRounds());
      a.removeIf(p -> p.contains(gone));
      assertThat(partial.covered(100, partial.coverRounds())).isEqualTo(a);
      // Round by round, a member takes part in at most what each view gives it (one probe with 40
      // members, two with 39), added: a repeat, not a storm.
      for (long r = 100; r < 100 + 2L * members.size(); r++) {
        Map<String, Integer> load = new HashMap<>();
        for (PeerSchedule view : List.of(all, partial)) {
          for (Pair p : view.pairs(r)) {
            load.merge(p.prober(), 1, Integer::sum);
            load.merge(p.responder(), 1, Integer::sum);
          }
        }
        assertThat(Collections.max(load.values())).isLessThanOrEqualTo(3);
      }
    }
  }

  @Test
  void roundsFollowTheClockAndABudgetBelowOneRoundIsRefused() {
    PeerSchedule plan = PeerSchedule.of(hosts(8), Duration.ofSeconds(60), 120);
    assertThat(plan.roundLength()).isEqualTo(Duration.ofSeconds(60));
    assertThat(plan.roundAt(plan.start(42))).isEqualTo(42);
    assertThat(plan.roundAt(plan.start(42).plusSeconds(59))).isEqualTo(42);
    // 8 members, one partner a round: a budget of 30 an hour stretches rounds to 2 minutes.
    assertThat(PeerSchedule.of(hosts(8), Duration.ofSeconds(60), 30).roundLength())
        .isEqualTo(Duration.ofSeconds(120));
    assertThatThrownBy(() -> PeerSchedule.of(hosts(9), Duration.ofSeconds(60), 1))
        .isInstanceOf(IllegalArgumentException.class)
        .hasMessage("budget 1 probes an hour: below the 2 a member takes part in each round");
    assertThat(PeerSchedule.of(hosts(1), Duration.ofSeconds(60), 10).pairs(3)).isEmpty();
    assertThat(
            PeerSchedule.of(
                    IntStream.range(0, 3).mapToObj(i -> new Member("same", null)).toList(),
                    Duration.ofSeconds(60),
                    10)
                .members())
        .hasSize(1);
  }
}
