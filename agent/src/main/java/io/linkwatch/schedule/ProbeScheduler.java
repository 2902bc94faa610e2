package io.linkwatch.schedule;

import io.linkwatch.config.ProbeConfig;
import io.linkwatch.registry.ProbeKind;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.random.RandomGenerator;
import org.quartz.CronScheduleBuilder;
import org.quartz.DisallowConcurrentExecution;
import org.quartz.Job;
import org.quartz.JobBuilder;
import org.quartz.JobDetail;
import org.quartz.JobExecutionContext;
import org.quartz.JobKey;
import org.quartz.Scheduler;
import org.quartz.SchedulerException;
import org.quartz.SimpleScheduleBuilder;
import org.quartz.Trigger;
import org.quartz.TriggerBuilder;
import org.quartz.TriggerKey;
import org.quartz.impl.DirectSchedulerFactory;
import org.quartz.simpl.RAMJobStore;
import org.quartz.simpl.SimpleJobFactory;

/**
 * One Quartz job per enabled probe, each run handed to a {@link ProbeRuns}. The first run comes a
 * few seconds after start, staggered and with a little jitter ({@link FirstRuns}), so metrics
 * appear within seconds; later runs follow the probe's interval or cron. A run that could not start
 * on time (the agent was busy or suspended) is dropped, never bunched: the misfire policies below
 * all say "skip to the next firing".
 */
public final class ProbeScheduler implements AutoCloseable {
  private static final String EXECUTOR = "executor";

  /** A run that could not start within this of its time counts as misfired (and is skipped). */
  private static final Duration MISFIRE_THRESHOLD = Duration.ofSeconds(1);

  private static final AtomicInteger INSTANCES = new AtomicInteger();

  private final Scheduler scheduler;
  private final List<ProbeConfig> probes;
  private final Duration firstDelay;
  private final Clock clock;
  private final RandomGenerator random;

  public ProbeScheduler(ProbeRuns runs, List<ProbeConfig> probes, long firstDelayMillis)
      throws SchedulerException {
    this(runs, probes, Duration.ofMillis(firstDelayMillis), Clock.systemUTC(), new Random());
  }

  /** With the clock and the jitter's random source given (for tests). */
  ProbeScheduler(
      ProbeRuns runs,
      List<ProbeConfig> probes,
      Duration firstDelay,
      Clock clock,
      RandomGenerator random)
      throws SchedulerException {
    // Built directly rather than from properties (StdSchedulerFactory): that path sets each part's
    // settings through java.beans introspection, about fifty classes the agent would hold for its
    // life for three setters. Likewise jobs are made plainly (SimpleJobFactory), not by Quartz's
    // default factory, which introspects every job class to copy its data map into setters.
    OnDemandThreadPool threads = new OnDemandThreadPool(Math.max(1, probes.size()), "probe");
    RAMJobStore store = new RAMJobStore();
    store.setMisfireThreshold(MISFIRE_THRESHOLD.toMillis());
    // A name of its own: Quartz keeps schedulers in a process-wide registry by name.
    String name = "linkwatch-" + INSTANCES.incrementAndGet();
    DirectSchedulerFactory factory = DirectSchedulerFactory.getInstance();
    factory.createScheduler(name, "NON_CLUSTERED", threads, store);
    scheduler = factory.getScheduler(name);
    scheduler.setJobFactory(new SimpleJobFactory());
    scheduler.getContext().put(EXECUTOR, runs);
    this.probes = List.copyOf(probes);
    this.firstDelay = firstDelay;
    this.clock = clock;
    this.random = random;
  }

  /**
   * Plans the first runs from now and starts firing. Planned here, not when the scheduler is made:
   * a first run due before Quartz starts (the HTTP server may take seconds to come up) would count
   * as misfired, and its probe would wait a whole interval.
   */
  public void start() throws SchedulerException {
    Map<ProbeKind, Instant> firstRuns = FirstRuns.plan(probes, clock.instant(), firstDelay, random);
    for (ProbeConfig probe : probes) {
      if (!probe.enabled()) {
        continue;
      }
      JobDetail job =
          JobBuilder.newJob(ProbeJob.class)
              .withIdentity(probe.kind().id())
              .usingJobData("probe", probe.kind().id())
              .build();
      Date first = Date.from(firstRuns.get(probe.kind()));
      scheduler.getContext().put(probe.kind().id(), probe);
      Set<Trigger> triggers = new HashSet<>();
      triggers.add(trigger(probe, first));
      if (probe.schedule().cron().isPresent()) {
        // A cron schedule may not fire for hours; one early run shows metrics at once.
        triggers.add(
            TriggerBuilder.newTrigger()
                .withIdentity(probe.kind().id() + "-first")
                .startAt(first)
                .withSchedule(
                    // late (a slow start) is still better than never: it has no next firing
                    SimpleScheduleBuilder.simpleSchedule().withMisfireHandlingInstructionFireNow())
                .build());
      }
      scheduler.scheduleJob(job, triggers, false);
    }
    scheduler.start();
  }

  private static Trigger trigger(ProbeConfig probe, Date first) {
    TriggerBuilder<Trigger> t = TriggerBuilder.newTrigger().withIdentity(probe.kind().id());
    if (probe.schedule().cron().isPresent()) {
      return t.startAt(first)
          .withSchedule(
              CronScheduleBuilder.cronSchedule(probe.schedule().cron().get())
                  .withMisfireHandlingInstructionDoNothing())
          .build();
    }
    return t.startAt(first)
        .withSchedule(
            SimpleScheduleBuilder.simpleSchedule()
                .withIntervalInMilliseconds(probe.schedule().every().orElseThrow().toMillis())
                .repeatForever()
                .withMisfireHandlingInstructionNextWithRemainingCount())
        .build();
  }

  /** The next firing of each scheduled probe, for the status page. */
  public Map<String, Instant> nextFireTimes() {
    Map<String, Instant> out = new LinkedHashMap<>();
    for (ProbeKind kind : ProbeKind.values()) {
      try {
        Trigger t = scheduler.getTrigger(TriggerKey.triggerKey(kind.id()));
        if (t != null && t.getNextFireTime() != null) {
          out.put(kind.id(), t.getNextFireTime().toInstant());
        }
      } catch (SchedulerException e) {
        // The scheduler is shutting down; the status page shows no next time.
      }
    }
    return out;
  }

  /** Stops firing and interrupts a run in progress; does not wait for it. */
  @Override
  public void close() throws SchedulerException {
    scheduler.standby();
    for (ProbeKind kind : ProbeKind.values()) {
      scheduler.interrupt(JobKey.jobKey(kind.id()));
    }
    scheduler.shutdown(false);
  }

  /** The Quartz job: one probe run. Never two of the same probe at once. */
  @DisallowConcurrentExecution
  public static final class ProbeJob implements Job, org.quartz.InterruptableJob {
    private volatile Thread runner;

    @Override
    public void execute(JobExecutionContext context) {
      runner = Thread.currentThread();
      try {
        String id = context.getMergedJobDataMap().getString("probe");
        ProbeRuns runs = (ProbeRuns) context.getScheduler().getContext().get(EXECUTOR);
        ProbeConfig probe = (ProbeConfig) context.getScheduler().getContext().get(id);
        // The probe's own trigger, also when this run came from the extra first run of a cron
        // schedule: retries for an idle device stop before its next firing.
        Trigger schedule = context.getScheduler().getTrigger(TriggerKey.triggerKey(id));
        Date next = schedule == null ? null : schedule.getNextFireTime();
        runs.runScheduled(probe, next == null ? null : next.toInstant());
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      } catch (SchedulerException e) {
        throw new IllegalStateException(e);
      } finally {
        runner = null;
      }
    }

    @Override
    public void interrupt() {
      Thread t = runner;
      if (t != null) {
        t.interrupt();
      }
    }
  }
}
