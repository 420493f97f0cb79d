import SimKernel

/// The classic hold model (Jones 1986; Brown 1988), the yardstick for event kernels: each of
/// `entities` entities repeatedly waits an Exp(1 s) time, `eventsPerEntity` times.
///
/// Two ways to run it give the same events:
/// - ``Mode/perEntity``: each entity simulated alone with its own queue of at most one
///   pending event (the way esmsim simulates participants);
/// - ``Mode/global``: all entities in one queue (`entities` pending events).
/// Each entity draws from its own stream (participant = entity index), so the two modes
/// produce identical event times, which the tests check through ``Result/checksum``.
public enum HoldModel {
  /// How the entities are simulated.
  public enum Mode: String, CaseIterable, Sendable {
    /// One small queue per entity, one entity after another.
    case perEntity = "per-entity"
    /// One queue holding every entity's pending event.
    case global
  }

  /// What a run did.
  public struct Result: Sendable, Equatable {
    /// Events handled.
    public var events: Int
    /// The sum over entities of the time of their last event (the same in both modes).
    public var checksum: SimTime
  }

  /// Runs the hold model.
  public static func run(entities: Int, eventsPerEntity: Int, mode: Mode, seed: UInt64) -> Result {
    switch mode {
    case .perEntity: return runPerEntity(entities, eventsPerEntity, seed)
    case .global: return runGlobal(entities, eventsPerEntity, seed)
    }
  }

  static func stream(_ seed: UInt64, _ entity: Int) -> RandomStream {
    RandomStream(StreamAddress(seed: seed, participant: UInt32(entity), purpose: .general))
  }

  @inline(__always)
  static func hold(_ stream: inout RandomStream) -> SimTime {
    Tick.seconds(stream.exponential(mean: 1))
  }

  struct OneEntity: EventHandler {
    var stream: RandomStream
    var remaining: Int
    var lastTime: SimTime = 0

    mutating func handle(_ event: Event, _ sim: inout Simulator) {
      lastTime = event.time
      remaining -= 1
      if remaining > 0 { sim.schedule(at: sim.now + HoldModel.hold(&stream), kind: 0) }
    }
  }

  static func runPerEntity(_ entities: Int, _ perEntity: Int, _ seed: UInt64) -> Result {
    var sim = Simulator(capacity: 4)
    var result = Result(events: 0, checksum: 0)
    for e in 0..<entities where perEntity > 0 {
      sim.reset()
      var model = OneEntity(stream: stream(seed, e), remaining: perEntity)
      sim.schedule(at: hold(&model.stream), kind: 0)
      result.events += sim.run(until: .max, &model)
      result.checksum &+= model.lastTime
    }
    return result
  }

  /// One entity's state in the global run (kept together: one array, one lookup per event).
  struct EntityState {
    var stream: RandomStream
    var remaining: Int
    var lastTime: SimTime = 0
  }

  struct AllEntities: EventHandler {
    var entities: [EntityState]

    mutating func handle(_ event: Event, _ sim: inout Simulator) {
      let next: SimTime? = entities.withUnsafeMutableBufferPointer { all in
        let e = Int(event.entity)
        all[e].lastTime = event.time
        all[e].remaining -= 1
        return all[e].remaining > 0 ? event.time + HoldModel.hold(&all[e].stream) : nil
      }
      if let next { sim.schedule(at: next, kind: 0, entity: event.entity) }
    }
  }

  static func runGlobal(_ entities: Int, _ perEntity: Int, _ seed: UInt64) -> Result {
    guard perEntity > 0 else { return Result(events: 0, checksum: 0) }
    var model = AllEntities(
      entities: (0..<entities).map { EntityState(stream: stream(seed, $0), remaining: perEntity) })
    var sim = Simulator(capacity: entities)
    for e in 0..<entities {
      sim.schedule(at: hold(&model.entities[e].stream), kind: 0, entity: UInt32(e))
    }
    let events = sim.run(until: .max, &model)
    return Result(events: events, checksum: model.entities.reduce(0) { $0 &+ $1.lastTime })
  }
}
