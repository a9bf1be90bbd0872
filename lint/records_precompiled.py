"""The methods `record` makes, compiled ahead: written by scripts/gen_record_methods.py (do not edit).

`MAKERS` files each `__make__` under the source text `records.maker` would compile it from."""

def _make_0():
 def __eq__(self, other):
  if other.__class__ is self.__class__:
   return (self.items,) == (other.items,)
  return NotImplemented
 return __eq__

def _make_1():
 def __eq__(self, other):
  if other.__class__ is self.__class__:
   return (self.kind,self.first,self.last,) == (other.kind,other.first,other.last,)
  return NotImplemented
 return __eq__

def _make_2():
 def __eq__(self, other):
  if other.__class__ is self.__class__:
   return (self.kind,self.index,self.count,self.half,) == (other.kind,other.index,other.count,other.half,)
  return NotImplemented
 return __eq__

def _make_3():
 def __eq__(self, other):
  if other.__class__ is self.__class__:
   return (self.kind,self.name,self.labels,self.operands,self.modifiers,self.args,self.resolved,self.pair,) == (other.kind,other.name,other.labels,other.operands,other.modifiers,other.args,other.resolved,other.pair,)
  return NotImplemented
 return __eq__

def _make_4():
 def __eq__(self, other):
  if other.__class__ is self.__class__:
   return (self.label,self.forward,) == (other.label,other.forward,)
  return NotImplemented
 return __eq__

def _make_5():
 def __eq__(self, other):
  if other.__class__ is self.__class__:
   return (self.name,) == (other.name,)
  return NotImplemented
 return __eq__

def _make_6():
 def __eq__(self, other):
  if other.__class__ is self.__class__:
   return (self.name,self.args,) == (other.name,other.args,)
  return NotImplemented
 return __eq__

def _make_7():
 def __eq__(self, other):
  if other.__class__ is self.__class__:
   return (self.name,self.major,self.minor,self.stepping,self.generic,) == (other.name,other.major,other.minor,other.stepping,other.generic,)
  return NotImplemented
 return __eq__

def _make_8():
 def __eq__(self, other):
  if other.__class__ is self.__class__:
   return (self.op,self.left,self.right,) == (other.op,other.left,other.right,)
  return NotImplemented
 return __eq__

def _make_9():
 def __eq__(self, other):
  if other.__class__ is self.__class__:
   return (self.op,self.operand,) == (other.op,other.operand,)
  return NotImplemented
 return __eq__

def _make_10():
 def __eq__(self, other):
  if other.__class__ is self.__class__:
   return (self.operand,) == (other.operand,)
  return NotImplemented
 return __eq__

def _make_11():
 def __eq__(self, other):
  if other.__class__ is self.__class__:
   return (self.value,) == (other.value,)
  return NotImplemented
 return __eq__

def _make_12():
 def __hash__(self):
  return hash((self.items,))
 return __hash__

def _make_13():
 def __hash__(self):
  return hash((self.kind,self.first,self.last,))
 return __hash__

def _make_14():
 def __hash__(self):
  return hash((self.kind,self.index,self.count,self.half,))
 return __hash__

def _make_15():
 def __hash__(self):
  return hash((self.kind,self.name,self.labels,self.operands,self.modifiers,self.args,self.resolved,self.pair,))
 return __hash__

def _make_16():
 def __hash__(self):
  return hash((self.label,self.forward,))
 return __hash__

def _make_17():
 def __hash__(self):
  return hash((self.name,))
 return __hash__

def _make_18():
 def __hash__(self):
  return hash((self.name,self.args,))
 return __hash__

def _make_19():
 def __hash__(self):
  return hash((self.name,self.major,self.minor,self.stepping,self.generic,))
 return __hash__

def _make_20():
 def __hash__(self):
  return hash((self.op,self.left,self.right,))
 return __hash__

def _make_21():
 def __hash__(self):
  return hash((self.op,self.operand,))
 return __hash__

def _make_22():
 def __hash__(self):
  return hash((self.operand,))
 return __hash__

def _make_23():
 def __hash__(self):
  return hash((self.value,))
 return __hash__

def _make_24(_FACTORY, _setattr):
 def __init__(self, blocks, block_of_label, starts, block_of):
  self.blocks = blocks
  self.block_of_label = block_of_label
  self.starts = starts
  self.block_of = block_of
 return __init__

def _make_25(_FACTORY, _setattr):
 def __init__(self, code, name, severity, summary, explain, scope, requires, check):
  _setattr(self, 'code', code)
  _setattr(self, 'name', name)
  _setattr(self, 'severity', severity)
  _setattr(self, 'summary', summary)
  _setattr(self, 'explain', explain)
  _setattr(self, 'scope', scope)
  _setattr(self, 'requires', requires)
  _setattr(self, 'check', check)
 return __init__

def _make_26(_FACTORY, _setattr):
 def __init__(self, consumer, producer, row, needed, present):
  _setattr(self, 'consumer', consumer)
  _setattr(self, 'producer', producer)
  _setattr(self, 'row', row)
  _setattr(self, 'needed', needed)
  _setattr(self, 'present', present)
 return __init__

def _make_27(_FACTORY, _setattr):
 def __init__(self, copies, one_lane, addend_high, reaches, excused):
  _setattr(self, 'copies', copies)
  _setattr(self, 'one_lane', one_lane)
  _setattr(self, 'addend_high', addend_high)
  _setattr(self, 'reaches', reaches)
  _setattr(self, 'excused', excused)
 return __init__

def _make_28(_FACTORY, _setattr):
 def __init__(self, counter, count, unit, producer, access):
  _setattr(self, 'counter', counter)
  _setattr(self, 'count', count)
  _setattr(self, 'unit', unit)
  _setattr(self, 'producer', producer)
  _setattr(self, 'access', access)
 return __init__

def _make_29(_FACTORY, _setattr):
 def __init__(self, counts, expcnt_wait, invalidates, reads_aperture, test_key, access, unit, needs_without_registers):
  _setattr(self, 'counts', counts)
  _setattr(self, 'expcnt_wait', expcnt_wait)
  _setattr(self, 'invalidates', invalidates)
  _setattr(self, 'reads_aperture', reads_aperture)
  _setattr(self, 'test_key', test_key)
  _setattr(self, 'access', access)
  _setattr(self, 'unit', unit)
  _setattr(self, 'needs_without_registers', needs_without_registers)
 return __init__

def _make_30(_FACTORY, _setattr):
 def __init__(self, encoding, operands, modifiers):
  _setattr(self, 'encoding', encoding)
  _setattr(self, 'operands', operands)
  _setattr(self, 'modifiers', modifiers)
 return __init__

def _make_31(_FACTORY, _setattr):
 def __init__(self, events, reads_lds):
  _setattr(self, 'events', events)
  _setattr(self, 'reads_lds', reads_lds)
 return __init__

def _make_32(_FACTORY, _setattr):
 def __init__(self, family, entries):
  _setattr(self, 'family', family)
  _setattr(self, 'entries', entries)
 return __init__

def _make_33(_FACTORY, _setattr):
 def __init__(self, fewest, fewest_at, most, most_at, at_256):
  _setattr(self, 'fewest', fewest)
  _setattr(self, 'fewest_at', fewest_at)
  _setattr(self, 'most', most)
  _setattr(self, 'most_at', most_at)
  _setattr(self, 'at_256', at_256)
 return __init__

def _make_34(_FACTORY, _setattr):
 def __init__(self, fields, where):
  self.fields = fields
  self.where = where
 return __init__

def _make_35(_FACTORY, _setattr):
 def __init__(self, glob, base):
  _setattr(self, 'glob', glob)
  _setattr(self, 'base', base)
 return __init__

def _make_36(_FACTORY, _setattr):
 def __init__(self, items):
  _setattr(self, 'items', items)
 return __init__

def _make_37(_FACTORY, _setattr):
 def __init__(self, kind, first, last):
  _setattr(self, 'kind', kind)
  _setattr(self, 'first', first)
  _setattr(self, 'last', last)
 return __init__

def _make_38(_FACTORY, _setattr):
 def __init__(self, label, forward):
  _setattr(self, 'label', label)
  _setattr(self, 'forward', forward)
 return __init__

def _make_39(_FACTORY, _setattr):
 def __init__(self, live_vgprs, live_agprs):
  self.live_vgprs = live_vgprs
  self.live_agprs = live_agprs
 return __init__

def _make_40(_FACTORY, _setattr):
 def __init__(self, load, counter, wait, cycles, loop):
  _setattr(self, 'load', load)
  _setattr(self, 'counter', counter)
  _setattr(self, 'wait', wait)
  _setattr(self, 'cycles', cycles)
  _setattr(self, 'loop', loop)
 return __init__

def _make_41(_FACTORY, _setattr):
 def __init__(self, low, high, source):
  _setattr(self, 'low', low)
  _setattr(self, 'high', high)
  _setattr(self, 'source', source)
 return __init__

def _make_42(_FACTORY, _setattr):
 def __init__(self, message, column):
  _setattr(self, 'message', message)
  _setattr(self, 'column', column)
 return __init__

def _make_43(_FACTORY, _setattr):
 def __init__(self, missing, useless_waits, states_before):
  self.missing = missing
  self.useless_waits = useless_waits
  self.states_before = states_before
 return __init__

def _make_44(_FACTORY, _setattr):
 def __init__(self, module, rule):
  self.module = module
  self.rule = rule
 return __init__

def _make_45(_FACTORY, _setattr):
 def __init__(self, module, rule, kernel, analyses):
  self.module = module
  self.rule = rule
  self.kernel = kernel
  self.analyses = analyses
 return __init__

def _make_46(_FACTORY, _setattr):
 def __init__(self, name):
  _setattr(self, 'name', name)
 return __init__

def _make_47(_FACTORY, _setattr):
 def __init__(self, name, args):
  _setattr(self, 'name', name)
  _setattr(self, 'args', args)
 return __init__

def _make_48(_FACTORY, _setattr):
 def __init__(self, name, params, body, where):
  self.name = name
  self.params = params
  self.body = body
  self.where = where
 return __init__

def _make_49(_FACTORY, _setattr):
 def __init__(self, name, processor, compute_units):
  _setattr(self, 'name', name)
  _setattr(self, 'processor', processor)
  _setattr(self, 'compute_units', compute_units)
 return __init__

def _make_50(_FACTORY, _setattr):
 def __init__(self, op, left, right):
  _setattr(self, 'op', op)
  _setattr(self, 'left', left)
  _setattr(self, 'right', right)
 return __init__

def _make_51(_FACTORY, _setattr):
 def __init__(self, op, operand):
  _setattr(self, 'op', op)
  _setattr(self, 'operand', operand)
 return __init__

def _make_52(_FACTORY, _setattr):
 def __init__(self, operand):
  _setattr(self, 'operand', operand)
 return __init__

def _make_53(_FACTORY, _setattr):
 def __init__(self, options, selection, fail_on):
  self.options = options
  self.selection = selection
  self.fail_on = fail_on
 return __init__

def _make_54(_FACTORY, _setattr):
 def __init__(self, path, line, column, end_line, end_column, text):
  _setattr(self, 'path', path)
  _setattr(self, 'line', line)
  _setattr(self, 'column', column)
  _setattr(self, 'end_line', end_line)
  _setattr(self, 'end_column', end_column)
  _setattr(self, 'text', text)
 return __init__

def _make_55(_FACTORY, _setattr):
 def __init__(self, reads, copied):
  self.reads = reads
  self.copied = copied
 return __init__

def _make_56(_FACTORY, _setattr):
 def __init__(self, reason):
  _setattr(self, 'reason', reason)
 return __init__

def _make_57(_FACTORY, _setattr):
 def __init__(self, statement, first_word, vgpr_end, sgpr_end, names):
  self.statement = statement
  self.first_word = first_word
  self.vgpr_end = vgpr_end
  self.sgpr_end = sgpr_end
  self.names = names
 return __init__

def _make_58(_FACTORY, _setattr):
 def __init__(self, statements, lines, first, chain):
  self.statements = statements
  self.lines = lines
  self.first = first
  self.chain = chain
 return __init__

def _make_59(_FACTORY, _setattr):
 def __init__(self, table, loads, loops, cycles, events, waits):
  self.table = table
  self.loads = loads
  self.loops = loops
  self.cycles = cycles
  self.events = events
  self.waits = waits
 return __init__

def _make_60(_FACTORY, _setattr):
 def __init__(self, target, metadata, descriptors):
  self.target = target
  self.metadata = metadata
  self.descriptors = descriptors
 return __init__

def _make_61(_FACTORY, _setattr):
 def __init__(self, value):
  _setattr(self, 'value', value)
 return __init__

def _make_62(_FACTORY, _setattr):
 def __init__(self, version, diagnostics, published, hovers):
  _setattr(self, 'version', version)
  _setattr(self, 'diagnostics', diagnostics)
  _setattr(self, 'published', published)
  _setattr(self, 'hovers', hovers)
 return __init__

def _make_63(_FACTORY, _setattr):
 def __init__(self, wave_size, cumode, referenced_vgprs, referenced_agprs, referenced_sgprs, uses_vcc, uses_flat_scratch, arch_vgprs, agprs, vgprs, sgprs, allocated_vgprs, allocated_sgprs, accum_offset, lds_bytes, scratch_bytes, wg_size, wg_size_source, inputs, occupancy, usage_source):
  self.wave_size = wave_size
  self.cumode = cumode
  self.referenced_vgprs = referenced_vgprs
  self.referenced_agprs = referenced_agprs
  self.referenced_sgprs = referenced_sgprs
  self.uses_vcc = uses_vcc
  self.uses_flat_scratch = uses_flat_scratch
  self.arch_vgprs = arch_vgprs
  self.agprs = agprs
  self.vgprs = vgprs
  self.sgprs = sgprs
  self.allocated_vgprs = allocated_vgprs
  self.allocated_sgprs = allocated_sgprs
  self.accum_offset = accum_offset
  self.lds_bytes = lds_bytes
  self.scratch_bytes = scratch_bytes
  self.wg_size = wg_size
  self.wg_size_source = wg_size_source
  self.inputs = inputs
  self.occupancy = occupancy
  self.usage_source = usage_source
 return __init__

def _make_64(_FACTORY, _setattr):
 def __init__(self, wave_size, per_instruction, facts):
  self.wave_size = wave_size
  self.per_instruction = per_instruction
  self.facts = facts
 return __init__

def _make_65(_FACTORY, _setattr):
 def __init__(self, workgroups, slots_per_wave, units, waves, last_wave_efficiency, busy_units):
  self.workgroups = workgroups
  self.slots_per_wave = slots_per_wave
  self.units = units
  self.waves = waves
  self.last_wave_efficiency = last_wave_efficiency
  self.busy_units = busy_units
 return __init__

def _make_66(_FACTORY, _setattr):
 def __init__(self, x, y, width, height):
  _setattr(self, 'x', x)
  _setattr(self, 'y', y)
  _setattr(self, 'width', width)
  _setattr(self, 'height', height)
 return __init__

def _make_67(_FACTORY, _setattr, _default_applicability, _default_isolated):
 def __init__(self, description, edits, applicability=_default_applicability, isolated=_default_isolated):
  _setattr(self, 'description', description)
  _setattr(self, 'edits', edits)
  _setattr(self, 'applicability', applicability)
  _setattr(self, 'isolated', isolated)
 return __init__

def _make_68(_FACTORY, _setattr, _default_banked_vgprs, _default_maxima):
 def __init__(self, kernel, def_use, facts, access, target, is_function, flat_lds, tail_calls, lds_places, lds_read_follows, banked_vgprs=_default_banked_vgprs, maxima=_FACTORY):
  self.kernel = kernel
  self.def_use = def_use
  self.facts = facts
  self.access = access
  self.target = target
  self.is_function = is_function
  self.flat_lds = flat_lds
  self.tail_calls = tail_calls
  self.lds_places = lds_places
  self.lds_read_follows = lds_read_follows
  self.banked_vgprs = banked_vgprs
  self.maxima = _default_maxima() if maxima is _FACTORY else maxima
 return __init__

def _make_69(_FACTORY, _setattr, _default_barrier, _default_nop, _default_unit):
 def __init__(self, category, cost, latency, counters, waits, mfma_passes, reads, writes, pipe_cycles, barrier=_default_barrier, nop=_default_nop, unit=_default_unit):
  self.category = category
  self.cost = cost
  self.latency = latency
  self.counters = counters
  self.waits = waits
  self.mfma_passes = mfma_passes
  self.reads = reads
  self.writes = writes
  self.pipe_cycles = pipe_cycles
  self.barrier = barrier
  self.nop = nop
  self.unit = unit
 return __init__

def _make_70(_FACTORY, _setattr, _default_column):
 def __init__(self, kind, name, path, line, column=_default_column):
  _setattr(self, 'kind', kind)
  _setattr(self, 'name', name)
  _setattr(self, 'path', path)
  _setattr(self, 'line', line)
  _setattr(self, 'column', column)
 return __init__

def _make_71(_FACTORY, _setattr, _default_column):
 def __init__(self, rule, message, line, column=_default_column):
  _setattr(self, 'rule', rule)
  _setattr(self, 'message', message)
  _setattr(self, 'line', line)
  _setattr(self, 'column', column)
 return __init__

def _make_72(_FACTORY, _setattr, _default_column, _default_chain):
 def __init__(self, path, line, column=_default_column, chain=_default_chain):
  self.path = path
  self.line = line
  self.column = column
  self.chain = chain
 return __init__

def _make_73(_FACTORY, _setattr, _default_consumer, _default_producer, _default_advisory):
 def __init__(self, number, description, applies, states, consumer=_default_consumer, producer=_default_producer, advisory=_default_advisory):
  _setattr(self, 'number', number)
  _setattr(self, 'description', description)
  _setattr(self, 'applies', applies)
  _setattr(self, 'states', states)
  _setattr(self, 'consumer', consumer)
  _setattr(self, 'producer', producer)
  _setattr(self, 'advisory', advisory)
 return __init__

def _make_74(_FACTORY, _setattr, _default_copies, _default_one_lane, _default_addend_high, _default_reaches, _default_excused):
 def __init__(self, copies=_default_copies, one_lane=_default_one_lane, addend_high=_default_addend_high, reaches=_default_reaches, excused=_default_excused):
  _setattr(self, 'copies', copies)
  _setattr(self, 'one_lane', one_lane)
  _setattr(self, 'addend_high', addend_high)
  _setattr(self, 'reaches', reaches)
  _setattr(self, 'excused', excused)
 return __init__

def _make_75(_FACTORY, _setattr, _default_count, _default_half):
 def __init__(self, kind, index, count=_default_count, half=_default_half):
  _setattr(self, 'kind', kind)
  _setattr(self, 'index', index)
  _setattr(self, 'count', count)
  _setattr(self, 'half', half)
 return __init__

def _make_76(_FACTORY, _setattr, _default_covers, _default_everywhere, _default_used):
 def __init__(self, kind, rules, path, line, column, covers=_FACTORY, everywhere=_default_everywhere, used=_default_used):
  self.kind = kind
  self.rules = rules
  self.path = path
  self.line = line
  self.column = column
  self.covers = _default_covers() if covers is _FACTORY else covers
  self.everywhere = everywhere
  self.used = used
 return __init__

def _make_77(_FACTORY, _setattr, _default_cumode, _default_vgpr_label, _default_wg_min):
 def __init__(self, vgprs, sgprs, lds_bytes, wg_size, wave_size, cumode=_default_cumode, vgpr_label=_default_vgpr_label, wg_min=_default_wg_min):
  _setattr(self, 'vgprs', vgprs)
  _setattr(self, 'sgprs', sgprs)
  _setattr(self, 'lds_bytes', lds_bytes)
  _setattr(self, 'wg_size', wg_size)
  _setattr(self, 'wave_size', wave_size)
  _setattr(self, 'cumode', cumode)
  _setattr(self, 'vgpr_label', vgpr_label)
  _setattr(self, 'wg_min', wg_min)
 return __init__

def _make_78(_FACTORY, _setattr, _default_dashed):
 def __init__(self, name, points, color, dashed=_default_dashed):
  _setattr(self, 'name', name)
  _setattr(self, 'points', points)
  _setattr(self, 'color', color)
  _setattr(self, 'dashed', dashed)
 return __init__

def _make_79(_FACTORY, _setattr, _default_default, _default_required, _default_vararg):
 def __init__(self, name, default=_default_default, required=_default_required, vararg=_default_vararg):
  self.name = name
  self.default = default
  self.required = required
  self.vararg = vararg
 return __init__

def _make_80(_FACTORY, _setattr, _default_device):
 def __init__(self, grid, compute_units, device=_default_device):
  _setattr(self, 'grid', grid)
  _setattr(self, 'compute_units', compute_units)
  _setattr(self, 'device', device)
 return __init__

def _make_81(_FACTORY, _setattr, _default_diagnostics):
 def __init__(self, prefix, file, diagnostics=_FACTORY):
  self.prefix = prefix
  self.file = file
  self.diagnostics = _default_diagnostics() if diagnostics is _FACTORY else diagnostics
 return __init__

def _make_82(_FACTORY, _setattr, _default_dpp, _default_src_ab, _default_src_c, _default_dst, _default_rows, _default_produces, _default_serial, _default_after):
 def __init__(self, operands, modifiers, info, mnemonic, unit, wait_states, valu, mfma, dgemm, xdl, passes, vector_defs, scalar_defs, writes_exec, writes_vcc, dpp=_default_dpp, src_ab=_default_src_ab, src_c=_default_src_c, dst=_default_dst, rows=_default_rows, produces=_default_produces, serial=_FACTORY, after=_FACTORY):
  self.operands = operands
  self.modifiers = modifiers
  self.info = info
  self.mnemonic = mnemonic
  self.unit = unit
  self.wait_states = wait_states
  self.valu = valu
  self.mfma = mfma
  self.dgemm = dgemm
  self.xdl = xdl
  self.passes = passes
  self.vector_defs = vector_defs
  self.scalar_defs = scalar_defs
  self.writes_exec = writes_exec
  self.writes_vcc = writes_vcc
  self.dpp = dpp
  self.src_ab = src_ab
  self.src_c = src_c
  self.dst = dst
  self.rows = rows
  self.produces = produces
  self.serial = _default_serial() if serial is _FACTORY else serial
  self.after = _default_after() if after is _FACTORY else after
 return __init__

def _make_83(_FACTORY, _setattr, _default_end_column):
 def __init__(self, rule, message, where, end_column=_default_end_column):
  _setattr(self, 'rule', rule)
  _setattr(self, 'message', message)
  _setattr(self, 'where', where)
  _setattr(self, 'end_column', end_column)
 return __init__

def _make_84(_FACTORY, _setattr, _default_entries, _default_described, _default_relabelled, _default_handed, _default_reads, _default_waiting, _default_had_code):
 def __init__(self, handle, metadata, metadata_text, entries=_FACTORY, described=_FACTORY, relabelled=_default_relabelled, handed=_FACTORY, reads=_FACTORY, waiting=_FACTORY, had_code=_default_had_code):
  self.handle = handle
  self.metadata = metadata
  self.metadata_text = metadata_text
  self.entries = _default_entries() if entries is _FACTORY else entries
  self.described = _default_described() if described is _FACTORY else described
  self.relabelled = relabelled
  self.handed = _default_handed() if handed is _FACTORY else handed
  self.reads = _default_reads() if reads is _FACTORY else reads
  self.waiting = _default_waiting() if waiting is _FACTORY else waiting
  self.had_code = had_code
 return __init__

def _make_85(_FACTORY, _setattr, _default_error, _default_quoted, _default_skipped):
 def __init__(self, path, module, diagnostics, error=_default_error, quoted=_FACTORY, skipped=_default_skipped):
  self.path = path
  self.module = module
  self.diagnostics = diagnostics
  self.error = error
  self.quoted = _default_quoted() if quoted is _FACTORY else quoted
  self.skipped = skipped
 return __init__

def _make_86(_FACTORY, _setattr, _default_flat):
 def __init__(self, counter, kind, units, flat=_default_flat):
  _setattr(self, 'counter', counter)
  _setattr(self, 'kind', kind)
  _setattr(self, 'units', units)
  _setattr(self, 'flat', flat)
 return __init__

def _make_87(_FACTORY, _setattr, _default_generated, _default_debug_lines):
 def __init__(self, source, options, origin, described, generated=_default_generated, debug_lines=_FACTORY):
  self.source = source
  self.options = options
  self.origin = origin
  self.described = described
  self.generated = generated
  self.debug_lines = _default_debug_lines() if debug_lines is _FACTORY else debug_lines
 return __init__

def _make_88(_FACTORY, _setattr, _default_generic, _default_features):
 def __init__(self, name, major, minor, stepping, generic=_default_generic, features=_FACTORY):
  _setattr(self, 'name', name)
  _setattr(self, 'major', major)
  _setattr(self, 'minor', minor)
  _setattr(self, 'stepping', stepping)
  _setattr(self, 'generic', generic)
  _setattr(self, 'features', _default_features() if features is _FACTORY else features)
 return __init__

def _make_89(_FACTORY, _setattr, _default_hazard, _default_waits, _default_registers, _default_extent, _default_cycles):
 def __init__(self, info, hazard=_default_hazard, waits=_default_waits, registers=_default_registers, extent=_default_extent, cycles=_default_cycles):
  self.info = info
  self.hazard = hazard
  self.waits = waits
  self.registers = registers
  self.extent = extent
  self.cycles = cycles
 return __init__

def _make_90(_FACTORY, _setattr, _default_hazards, _default_advisories):
 def __init__(self, hazards=_FACTORY, advisories=_FACTORY):
  self.hazards = _default_hazards() if hazards is _FACTORY else hazards
  self.advisories = _default_advisories() if advisories is _FACTORY else advisories
 return __init__

def _make_91(_FACTORY, _setattr, _default_instructions, _default_labels, _default_is_kernel, _default_descriptor, _default_descriptor_where, _default_metadata, _default_kernel_code_t):
 def __init__(self, name, where, instructions=_FACTORY, labels=_FACTORY, is_kernel=_default_is_kernel, descriptor=_FACTORY, descriptor_where=_default_descriptor_where, metadata=_default_metadata, kernel_code_t=_default_kernel_code_t):
  self.name = name
  self.where = where
  self.instructions = _default_instructions() if instructions is _FACTORY else instructions
  self.labels = _default_labels() if labels is _FACTORY else labels
  self.is_kernel = is_kernel
  self.descriptor = _default_descriptor() if descriptor is _FACTORY else descriptor
  self.descriptor_where = descriptor_where
  self.metadata = metadata
  self.kernel_code_t = kernel_code_t
 return __init__

def _make_92(_FACTORY, _setattr, _default_instructions, _default_successors, _default_predecessors):
 def __init__(self, index, label, instructions=_FACTORY, successors=_FACTORY, predecessors=_FACTORY):
  self.index = index
  self.label = label
  self.instructions = _default_instructions() if instructions is _FACTORY else instructions
  self.successors = _default_successors() if successors is _FACTORY else successors
  self.predecessors = _default_predecessors() if predecessors is _FACTORY else predecessors
 return __init__

def _make_93(_FACTORY, _setattr, _default_is_cpp):
 def __init__(self, path, number, text, column, is_cpp=_default_is_cpp):
  self.path = path
  self.number = number
  self.text = text
  self.column = column
  self.is_cpp = is_cpp
 return __init__

def _make_94(_FACTORY, _setattr, _default_kernel, _default_notes, _default_fix):
 def __init__(self, code, name, severity, message, path, line, column, end_line, end_column, kernel=_default_kernel, notes=_default_notes, fix=_default_fix):
  _setattr(self, 'code', code)
  _setattr(self, 'name', name)
  _setattr(self, 'severity', severity)
  _setattr(self, 'message', message)
  _setattr(self, 'path', path)
  _setattr(self, 'line', line)
  _setattr(self, 'column', column)
  _setattr(self, 'end_line', end_line)
  _setattr(self, 'end_column', end_column)
  _setattr(self, 'kernel', kernel)
  _setattr(self, 'notes', notes)
  _setattr(self, 'fix', fix)
 return __init__

def _make_95(_FACTORY, _setattr, _default_kind, _default_memory, _default_rate, _default_matrix, _default_passes, _default_xdl, _default_returns_data, _default_lds_dma, _default_sampler, _default_counters):
 def __init__(self, unit, kind=_default_kind, memory=_default_memory, rate=_default_rate, matrix=_default_matrix, passes=_default_passes, xdl=_default_xdl, returns_data=_default_returns_data, lds_dma=_default_lds_dma, sampler=_default_sampler, counters=_default_counters):
  _setattr(self, 'unit', unit)
  _setattr(self, 'kind', kind)
  _setattr(self, 'memory', memory)
  _setattr(self, 'rate', rate)
  _setattr(self, 'matrix', matrix)
  _setattr(self, 'passes', passes)
  _setattr(self, 'xdl', xdl)
  _setattr(self, 'returns_data', returns_data)
  _setattr(self, 'lds_dma', lds_dma)
  _setattr(self, 'sampler', sampler)
  _setattr(self, 'counters', counters)
 return __init__

def _make_96(_FACTORY, _setattr, _default_line_starts, _default_comments, _default_problems):
 def __init__(self, path, text, lines, line_starts=_FACTORY, comments=_FACTORY, problems=_FACTORY):
  self.path = path
  self.text = text
  self.lines = lines
  self.line_starts = _default_line_starts() if line_starts is _FACTORY else line_starts
  self.comments = _default_comments() if comments is _FACTORY else comments
  self.problems = _default_problems() if problems is _FACTORY else problems
 return __init__

def _make_97(_FACTORY, _setattr, _default_lines):
 def __init__(self, path, lines=_FACTORY):
  self.path = path
  self.lines = _default_lines() if lines is _FACTORY else lines
 return __init__

def _make_98(_FACTORY, _setattr, _default_mcpu, _default_include_dirs, _default_defsyms, _default_statement_budget, _default_wg_size, _default_launch, _default_min_waves, _default_baseline, _default_latency_table):
 def __init__(self, mcpu=_default_mcpu, include_dirs=_FACTORY, defsyms=_FACTORY, statement_budget=_default_statement_budget, wg_size=_default_wg_size, launch=_default_launch, min_waves=_default_min_waves, baseline=_default_baseline, latency_table=_default_latency_table):
  self.mcpu = mcpu
  self.include_dirs = _default_include_dirs() if include_dirs is _FACTORY else include_dirs
  self.defsyms = _default_defsyms() if defsyms is _FACTORY else defsyms
  self.statement_budget = statement_budget
  self.wg_size = wg_size
  self.launch = launch
  self.min_waves = min_waves
  self.baseline = baseline
  self.latency_table = latency_table
 return __init__

def _make_99(_FACTORY, _setattr, _default_mcpu, _default_include_dirs, _default_defsyms, _default_use_config, _default_config_file, _default_wg_size, _default_grid, _default_device, _default_cus, _default_min_waves, _default_latency_table, _default_select, _default_extend_select, _default_exclude, _default_extend_exclude, _default_ignore, _default_fail_on, _default_baseline, _default_use_baseline, _default_includers):
 def __init__(self, mcpu=_default_mcpu, include_dirs=_FACTORY, defsyms=_FACTORY, use_config=_default_use_config, config_file=_default_config_file, wg_size=_default_wg_size, grid=_default_grid, device=_default_device, cus=_default_cus, min_waves=_default_min_waves, latency_table=_default_latency_table, select=_FACTORY, extend_select=_FACTORY, exclude=_FACTORY, extend_exclude=_FACTORY, ignore=_FACTORY, fail_on=_default_fail_on, baseline=_default_baseline, use_baseline=_default_use_baseline, includers=_default_includers):
  self.mcpu = mcpu
  self.include_dirs = _default_include_dirs() if include_dirs is _FACTORY else include_dirs
  self.defsyms = _default_defsyms() if defsyms is _FACTORY else defsyms
  self.use_config = use_config
  self.config_file = config_file
  self.wg_size = wg_size
  self.grid = grid
  self.device = device
  self.cus = cus
  self.min_waves = min_waves
  self.latency_table = latency_table
  self.select = _default_select() if select is _FACTORY else select
  self.extend_select = _default_extend_select() if extend_select is _FACTORY else extend_select
  self.exclude = _default_exclude() if exclude is _FACTORY else exclude
  self.extend_exclude = _default_extend_exclude() if extend_exclude is _FACTORY else extend_exclude
  self.ignore = _default_ignore() if ignore is _FACTORY else ignore
  self.fail_on = fail_on
  self.baseline = baseline
  self.use_baseline = use_baseline
  self.includers = includers
 return __init__

def _make_100(_FACTORY, _setattr, _default_name, _default_labels, _default_operands, _default_modifiers, _default_args, _default_resolved, _default_pair):
 def __init__(self, kind, name=_default_name, labels=_default_labels, operands=_default_operands, modifiers=_default_modifiers, args=_default_args, resolved=_default_resolved, pair=_default_pair):
  _setattr(self, 'kind', kind)
  _setattr(self, 'name', name)
  _setattr(self, 'labels', labels)
  _setattr(self, 'operands', operands)
  _setattr(self, 'modifiers', modifiers)
  _setattr(self, 'args', args)
  _setattr(self, 'resolved', resolved)
  _setattr(self, 'pair', pair)
 return __init__

def _make_101(_FACTORY, _setattr, _default_next_step):
 def __init__(self, waves_per_simd, waves_per_cu, workgroups_per_cu, limits, limiters, next_step=_FACTORY):
  self.waves_per_simd = waves_per_simd
  self.waves_per_cu = waves_per_cu
  self.workgroups_per_cu = workgroups_per_cu
  self.limits = limits
  self.limiters = limiters
  self.next_step = _default_next_step() if next_step is _FACTORY else next_step
 return __init__

def _make_102(_FACTORY, _setattr, _default_original, _default_fixed, _default_applied, _default_found, _default_converged, _default_bom, _default_stamp):
 def __init__(self, result, original=_default_original, fixed=_default_fixed, applied=_FACTORY, found=_default_found, converged=_default_converged, bom=_default_bom, stamp=_default_stamp):
  self.result = result
  self.original = original
  self.fixed = fixed
  self.applied = _default_applied() if applied is _FACTORY else applied
  self.found = found
  self.converged = converged
  self.bom = bom
  self.stamp = stamp
 return __init__

def _make_103(_FACTORY, _setattr, _default_pair):
 def __init__(self, mnemonic, operands, modifiers, where, pair=_default_pair):
  self.mnemonic = mnemonic
  self.operands = operands
  self.modifiers = modifiers
  self.where = where
  self.pair = pair
 return __init__

def _make_104(_FACTORY, _setattr, _default_path, _default_line, _default_column, _default_expansion):
 def __init__(self, message, path=_default_path, line=_default_line, column=_default_column, expansion=_default_expansion):
  _setattr(self, 'message', message)
  _setattr(self, 'path', path)
  _setattr(self, 'line', line)
  _setattr(self, 'column', column)
  _setattr(self, 'expansion', expansion)
 return __init__

def _make_105(_FACTORY, _setattr, _default_path, _default_mcpu, _default_select, _default_extend_select, _default_exclude, _default_extend_exclude, _default_ignore, _default_include_dirs, _default_defsyms, _default_fail_on, _default_severities, _default_min_waves, _default_baseline, _default_latency_table, _default_per_file_ignores):
 def __init__(self, path=_default_path, mcpu=_default_mcpu, select=_FACTORY, extend_select=_FACTORY, exclude=_default_exclude, extend_exclude=_FACTORY, ignore=_FACTORY, include_dirs=_FACTORY, defsyms=_FACTORY, fail_on=_default_fail_on, severities=_FACTORY, min_waves=_default_min_waves, baseline=_default_baseline, latency_table=_default_latency_table, per_file_ignores=_FACTORY):
  self.path = path
  self.mcpu = mcpu
  self.select = _default_select() if select is _FACTORY else select
  self.extend_select = _default_extend_select() if extend_select is _FACTORY else extend_select
  self.exclude = exclude
  self.extend_exclude = _default_extend_exclude() if extend_exclude is _FACTORY else extend_exclude
  self.ignore = _default_ignore() if ignore is _FACTORY else ignore
  self.include_dirs = _default_include_dirs() if include_dirs is _FACTORY else include_dirs
  self.defsyms = _default_defsyms() if defsyms is _FACTORY else defsyms
  self.fail_on = fail_on
  self.severities = _default_severities() if severities is _FACTORY else severities
  self.min_waves = min_waves
  self.baseline = baseline
  self.latency_table = latency_table
  self.per_file_ignores = _default_per_file_ignores() if per_file_ignores is _FACTORY else per_file_ignores
 return __init__

def _make_106(_FACTORY, _setattr, _default_pending, _default_types, _default_regs, _default_flat, _default_unknown, _default_unseen):
 def __init__(self, pending=_default_pending, types=_default_types, regs=_FACTORY, flat=_default_flat, unknown=_default_unknown, unseen=_default_unseen):
  self.pending = pending
  self.types = types
  self.regs = _default_regs() if regs is _FACTORY else regs
  self.flat = flat
  self.unknown = unknown
  self.unseen = unseen
 return __init__

def _make_107(_FACTORY, _setattr, _default_position, _default_ready, _default_events, _default_results, _default_at_barrier, _default_done_at, _default_busy_with, _default_waiting, _default_released):
 def __init__(self, number, simd, position=_default_position, ready=_default_ready, events=_FACTORY, results=_FACTORY, at_barrier=_default_at_barrier, done_at=_default_done_at, busy_with=_default_busy_with, waiting=_default_waiting, released=_default_released):
  self.number = number
  self.simd = simd
  self.position = position
  self.ready = ready
  self.events = _default_events() if events is _FACTORY else events
  self.results = _default_results() if results is _FACTORY else results
  self.at_barrier = at_barrier
  self.done_at = done_at
  self.busy_with = busy_with
  self.waiting = waiting
  self.released = released
 return __init__

def _make_108(_FACTORY, _setattr, _default_problem, _default_preserved):
 def __init__(self, defs, uses, klass, variant, problem=_default_problem, preserved=_default_preserved):
  _setattr(self, 'defs', defs)
  _setattr(self, 'uses', uses)
  _setattr(self, 'klass', klass)
  _setattr(self, 'variant', variant)
  _setattr(self, 'problem', problem)
  _setattr(self, 'preserved', preserved)
 return __init__

def _make_109(_FACTORY, _setattr, _default_problem, _default_skipped):
 def __init__(self, path, settings, rule_codes, problem=_default_problem, skipped=_default_skipped):
  self.path = path
  self.settings = settings
  self.rule_codes = rule_codes
  self.problem = problem
  self.skipped = skipped
 return __init__

def _make_110(_FACTORY, _setattr, _default_reached):
 def __init__(self, path, boundary, in_copy, reached=_default_reached):
  self.path = path
  self.boundary = boundary
  self.in_copy = in_copy
  self.reached = reached
 return __init__

def _make_111(_FACTORY, _setattr, _default_seen_else):
 def __init__(self, active, decided, line, seen_else=_default_seen_else):
  self.active = active
  self.decided = decided
  self.line = line
  self.seen_else = seen_else
 return __init__

def _make_112(_FACTORY, _setattr, _default_select, _default_ignore, _default_severities, _default_per_file_ignores):
 def __init__(self, select=_FACTORY, ignore=_FACTORY, severities=_FACTORY, per_file_ignores=_FACTORY):
  self.select = _default_select() if select is _FACTORY else select
  self.ignore = _default_ignore() if ignore is _FACTORY else ignore
  self.severities = _default_severities() if severities is _FACTORY else severities
  self.per_file_ignores = _default_per_file_ignores() if per_file_ignores is _FACTORY else per_file_ignores
 return __init__

def _make_113(_FACTORY, _setattr, _default_source, _default_macro_depth, _default_is_macro, _default_index, _default_conditions, _default_iterations):
 def __init__(self, lines, chain, source=_default_source, macro_depth=_default_macro_depth, is_macro=_default_is_macro, index=_default_index, conditions=_FACTORY, iterations=_default_iterations):
  self.lines = lines
  self.chain = chain
  self.source = source
  self.macro_depth = macro_depth
  self.is_macro = is_macro
  self.index = index
  self.conditions = _default_conditions() if conditions is _FACTORY else conditions
  self.iterations = iterations
 return __init__

def _make_114(_FACTORY, _setattr, _default_starve_rate, _default_work_items_per_cycle, _default_bottleneck):
 def __init__(self, waves, cycles, clocks_per_wave, utilization, stall_rate, stalls, per_line, trace_length, starve_rate=_default_starve_rate, work_items_per_cycle=_default_work_items_per_cycle, bottleneck=_default_bottleneck):
  self.waves = waves
  self.cycles = cycles
  self.clocks_per_wave = clocks_per_wave
  self.utilization = utilization
  self.stall_rate = stall_rate
  self.stalls = stalls
  self.per_line = per_line
  self.trace_length = trace_length
  self.starve_rate = starve_rate
  self.work_items_per_cycle = work_items_per_cycle
  self.bottleneck = bottleneck
 return __init__

def _make_115(_FACTORY, _setattr, _default_tags):
 def __init__(self, name, is_def, size, kinds, tags=_default_tags):
  _setattr(self, 'name', name)
  _setattr(self, 'is_def', is_def)
  _setattr(self, 'size', size)
  _setattr(self, 'kinds', kinds)
  _setattr(self, 'tags', tags)
 return __init__

def _make_116(_FACTORY, _setattr, _default_target_triple, _default_kernels, _default_sources, _default_findings, _default_directives, _default_symbols, _default_defined_labels, _default_code_object_version, _default_metadata, _default_options):
 def __init__(self, path, target, target_triple=_default_target_triple, kernels=_FACTORY, sources=_FACTORY, findings=_FACTORY, directives=_FACTORY, symbols=_FACTORY, defined_labels=_FACTORY, code_object_version=_default_code_object_version, metadata=_default_metadata, options=_default_options):
  self.path = path
  self.target = target
  self.target_triple = target_triple
  self.kernels = _default_kernels() if kernels is _FACTORY else kernels
  self.sources = _default_sources() if sources is _FACTORY else sources
  self.findings = _default_findings() if findings is _FACTORY else findings
  self.directives = _default_directives() if directives is _FACTORY else directives
  self.symbols = _default_symbols() if symbols is _FACTORY else symbols
  self.defined_labels = _default_defined_labels() if defined_labels is _FACTORY else defined_labels
  self.code_object_version = code_object_version
  self.metadata = metadata
  self.options = options
 return __init__

def _make_117(_FACTORY, _setattr, _default_vgprs, _default_agprs, _default_sgprs, _default_lds_bytes, _default_wg_size, _default_wave_size, _default_cumode):
 def __init__(self, vgprs=_default_vgprs, agprs=_default_agprs, sgprs=_default_sgprs, lds_bytes=_default_lds_bytes, wg_size=_default_wg_size, wave_size=_default_wave_size, cumode=_default_cumode):
  _setattr(self, 'vgprs', vgprs)
  _setattr(self, 'agprs', agprs)
  _setattr(self, 'sgprs', sgprs)
  _setattr(self, 'lds_bytes', lds_bytes)
  _setattr(self, 'wg_size', wg_size)
  _setattr(self, 'wave_size', wave_size)
  _setattr(self, 'cumode', cumode)
 return __init__


MAKERS = {
    'def __make__():\n def __eq__(self, other):\n  if other.__class__ is self.__class__:\n   return (self.items,) == (other.items,)\n  return NotImplemented\n return __eq__\n': _make_0,
    'def __make__():\n def __eq__(self, other):\n  if other.__class__ is self.__class__:\n   return (self.kind,self.first,self.last,) == (other.kind,other.first,other.last,)\n  return NotImplemented\n return __eq__\n': _make_1,
    'def __make__():\n def __eq__(self, other):\n  if other.__class__ is self.__class__:\n   return (self.kind,self.index,self.count,self.half,) == (other.kind,other.index,other.count,other.half,)\n  return NotImplemented\n return __eq__\n': _make_2,
    'def __make__():\n def __eq__(self, other):\n  if other.__class__ is self.__class__:\n   return (self.kind,self.name,self.labels,self.operands,self.modifiers,self.args,self.resolved,self.pair,) == (other.kind,other.name,other.labels,other.operands,other.modifiers,other.args,other.resolved,other.pair,)\n  return NotImplemented\n return __eq__\n': _make_3,
    'def __make__():\n def __eq__(self, other):\n  if other.__class__ is self.__class__:\n   return (self.label,self.forward,) == (other.label,other.forward,)\n  return NotImplemented\n return __eq__\n': _make_4,
    'def __make__():\n def __eq__(self, other):\n  if other.__class__ is self.__class__:\n   return (self.name,) == (other.name,)\n  return NotImplemented\n return __eq__\n': _make_5,
    'def __make__():\n def __eq__(self, other):\n  if other.__class__ is self.__class__:\n   return (self.name,self.args,) == (other.name,other.args,)\n  return NotImplemented\n return __eq__\n': _make_6,
    'def __make__():\n def __eq__(self, other):\n  if other.__class__ is self.__class__:\n   return (self.name,self.major,self.minor,self.stepping,self.generic,) == (other.name,other.major,other.minor,other.stepping,other.generic,)\n  return NotImplemented\n return __eq__\n': _make_7,
    'def __make__():\n def __eq__(self, other):\n  if other.__class__ is self.__class__:\n   return (self.op,self.left,self.right,) == (other.op,other.left,other.right,)\n  return NotImplemented\n return __eq__\n': _make_8,
    'def __make__():\n def __eq__(self, other):\n  if other.__class__ is self.__class__:\n   return (self.op,self.operand,) == (other.op,other.operand,)\n  return NotImplemented\n return __eq__\n': _make_9,
    'def __make__():\n def __eq__(self, other):\n  if other.__class__ is self.__class__:\n   return (self.operand,) == (other.operand,)\n  return NotImplemented\n return __eq__\n': _make_10,
    'def __make__():\n def __eq__(self, other):\n  if other.__class__ is self.__class__:\n   return (self.value,) == (other.value,)\n  return NotImplemented\n return __eq__\n': _make_11,
    'def __make__():\n def __hash__(self):\n  return hash((self.items,))\n return __hash__\n': _make_12,
    'def __make__():\n def __hash__(self):\n  return hash((self.kind,self.first,self.last,))\n return __hash__\n': _make_13,
    'def __make__():\n def __hash__(self):\n  return hash((self.kind,self.index,self.count,self.half,))\n return __hash__\n': _make_14,
    'def __make__():\n def __hash__(self):\n  return hash((self.kind,self.name,self.labels,self.operands,self.modifiers,self.args,self.resolved,self.pair,))\n return __hash__\n': _make_15,
    'def __make__():\n def __hash__(self):\n  return hash((self.label,self.forward,))\n return __hash__\n': _make_16,
    'def __make__():\n def __hash__(self):\n  return hash((self.name,))\n return __hash__\n': _make_17,
    'def __make__():\n def __hash__(self):\n  return hash((self.name,self.args,))\n return __hash__\n': _make_18,
    'def __make__():\n def __hash__(self):\n  return hash((self.name,self.major,self.minor,self.stepping,self.generic,))\n return __hash__\n': _make_19,
    'def __make__():\n def __hash__(self):\n  return hash((self.op,self.left,self.right,))\n return __hash__\n': _make_20,
    'def __make__():\n def __hash__(self):\n  return hash((self.op,self.operand,))\n return __hash__\n': _make_21,
    'def __make__():\n def __hash__(self):\n  return hash((self.operand,))\n return __hash__\n': _make_22,
    'def __make__():\n def __hash__(self):\n  return hash((self.value,))\n return __hash__\n': _make_23,
    'def __make__(_FACTORY, _setattr):\n def __init__(self, blocks, block_of_label, starts, block_of):\n  self.blocks = blocks\n  self.block_of_label = block_of_label\n  self.starts = starts\n  self.block_of = block_of\n return __init__\n': _make_24,
    "def __make__(_FACTORY, _setattr):\n def __init__(self, code, name, severity, summary, explain, scope, requires, check):\n  _setattr(self, 'code', code)\n  _setattr(self, 'name', name)\n  _setattr(self, 'severity', severity)\n  _setattr(self, 'summary', summary)\n  _setattr(self, 'explain', explain)\n  _setattr(self, 'scope', scope)\n  _setattr(self, 'requires', requires)\n  _setattr(self, 'check', check)\n return __init__\n": _make_25,
    "def __make__(_FACTORY, _setattr):\n def __init__(self, consumer, producer, row, needed, present):\n  _setattr(self, 'consumer', consumer)\n  _setattr(self, 'producer', producer)\n  _setattr(self, 'row', row)\n  _setattr(self, 'needed', needed)\n  _setattr(self, 'present', present)\n return __init__\n": _make_26,
    "def __make__(_FACTORY, _setattr):\n def __init__(self, copies, one_lane, addend_high, reaches, excused):\n  _setattr(self, 'copies', copies)\n  _setattr(self, 'one_lane', one_lane)\n  _setattr(self, 'addend_high', addend_high)\n  _setattr(self, 'reaches', reaches)\n  _setattr(self, 'excused', excused)\n return __init__\n": _make_27,
    "def __make__(_FACTORY, _setattr):\n def __init__(self, counter, count, unit, producer, access):\n  _setattr(self, 'counter', counter)\n  _setattr(self, 'count', count)\n  _setattr(self, 'unit', unit)\n  _setattr(self, 'producer', producer)\n  _setattr(self, 'access', access)\n return __init__\n": _make_28,
    "def __make__(_FACTORY, _setattr):\n def __init__(self, counts, expcnt_wait, invalidates, reads_aperture, test_key, access, unit, needs_without_registers):\n  _setattr(self, 'counts', counts)\n  _setattr(self, 'expcnt_wait', expcnt_wait)\n  _setattr(self, 'invalidates', invalidates)\n  _setattr(self, 'reads_aperture', reads_aperture)\n  _setattr(self, 'test_key', test_key)\n  _setattr(self, 'access', access)\n  _setattr(self, 'unit', unit)\n  _setattr(self, 'needs_without_registers', needs_without_registers)\n return __init__\n": _make_29,
    "def __make__(_FACTORY, _setattr):\n def __init__(self, encoding, operands, modifiers):\n  _setattr(self, 'encoding', encoding)\n  _setattr(self, 'operands', operands)\n  _setattr(self, 'modifiers', modifiers)\n return __init__\n": _make_30,
    "def __make__(_FACTORY, _setattr):\n def __init__(self, events, reads_lds):\n  _setattr(self, 'events', events)\n  _setattr(self, 'reads_lds', reads_lds)\n return __init__\n": _make_31,
    "def __make__(_FACTORY, _setattr):\n def __init__(self, family, entries):\n  _setattr(self, 'family', family)\n  _setattr(self, 'entries', entries)\n return __init__\n": _make_32,
    "def __make__(_FACTORY, _setattr):\n def __init__(self, fewest, fewest_at, most, most_at, at_256):\n  _setattr(self, 'fewest', fewest)\n  _setattr(self, 'fewest_at', fewest_at)\n  _setattr(self, 'most', most)\n  _setattr(self, 'most_at', most_at)\n  _setattr(self, 'at_256', at_256)\n return __init__\n": _make_33,
    'def __make__(_FACTORY, _setattr):\n def __init__(self, fields, where):\n  self.fields = fields\n  self.where = where\n return __init__\n': _make_34,
    "def __make__(_FACTORY, _setattr):\n def __init__(self, glob, base):\n  _setattr(self, 'glob', glob)\n  _setattr(self, 'base', base)\n return __init__\n": _make_35,
    "def __make__(_FACTORY, _setattr):\n def __init__(self, items):\n  _setattr(self, 'items', items)\n return __init__\n": _make_36,
    "def __make__(_FACTORY, _setattr):\n def __init__(self, kind, first, last):\n  _setattr(self, 'kind', kind)\n  _setattr(self, 'first', first)\n  _setattr(self, 'last', last)\n return __init__\n": _make_37,
    "def __make__(_FACTORY, _setattr):\n def __init__(self, label, forward):\n  _setattr(self, 'label', label)\n  _setattr(self, 'forward', forward)\n return __init__\n": _make_38,
    'def __make__(_FACTORY, _setattr):\n def __init__(self, live_vgprs, live_agprs):\n  self.live_vgprs = live_vgprs\n  self.live_agprs = live_agprs\n return __init__\n': _make_39,
    "def __make__(_FACTORY, _setattr):\n def __init__(self, load, counter, wait, cycles, loop):\n  _setattr(self, 'load', load)\n  _setattr(self, 'counter', counter)\n  _setattr(self, 'wait', wait)\n  _setattr(self, 'cycles', cycles)\n  _setattr(self, 'loop', loop)\n return __init__\n": _make_40,
    "def __make__(_FACTORY, _setattr):\n def __init__(self, low, high, source):\n  _setattr(self, 'low', low)\n  _setattr(self, 'high', high)\n  _setattr(self, 'source', source)\n return __init__\n": _make_41,
    "def __make__(_FACTORY, _setattr):\n def __init__(self, message, column):\n  _setattr(self, 'message', message)\n  _setattr(self, 'column', column)\n return __init__\n": _make_42,
    'def __make__(_FACTORY, _setattr):\n def __init__(self, missing, useless_waits, states_before):\n  self.missing = missing\n  self.useless_waits = useless_waits\n  self.states_before = states_before\n return __init__\n': _make_43,
    'def __make__(_FACTORY, _setattr):\n def __init__(self, module, rule):\n  self.module = module\n  self.rule = rule\n return __init__\n': _make_44,
    'def __make__(_FACTORY, _setattr):\n def __init__(self, module, rule, kernel, analyses):\n  self.module = module\n  self.rule = rule\n  self.kernel = kernel\n  self.analyses = analyses\n return __init__\n': _make_45,
    "def __make__(_FACTORY, _setattr):\n def __init__(self, name):\n  _setattr(self, 'name', name)\n return __init__\n": _make_46,
    "def __make__(_FACTORY, _setattr):\n def __init__(self, name, args):\n  _setattr(self, 'name', name)\n  _setattr(self, 'args', args)\n return __init__\n": _make_47,
    'def __make__(_FACTORY, _setattr):\n def __init__(self, name, params, body, where):\n  self.name = name\n  self.params = params\n  self.body = body\n  self.where = where\n return __init__\n': _make_48,
    "def __make__(_FACTORY, _setattr):\n def __init__(self, name, processor, compute_units):\n  _setattr(self, 'name', name)\n  _setattr(self, 'processor', processor)\n  _setattr(self, 'compute_units', compute_units)\n return __init__\n": _make_49,
    "def __make__(_FACTORY, _setattr):\n def __init__(self, op, left, right):\n  _setattr(self, 'op', op)\n  _setattr(self, 'left', left)\n  _setattr(self, 'right', right)\n return __init__\n": _make_50,
    "def __make__(_FACTORY, _setattr):\n def __init__(self, op, operand):\n  _setattr(self, 'op', op)\n  _setattr(self, 'operand', operand)\n return __init__\n": _make_51,
    "def __make__(_FACTORY, _setattr):\n def __init__(self, operand):\n  _setattr(self, 'operand', operand)\n return __init__\n": _make_52,
    'def __make__(_FACTORY, _setattr):\n def __init__(self, options, selection, fail_on):\n  self.options = options\n  self.selection = selection\n  self.fail_on = fail_on\n return __init__\n': _make_53,
    "def __make__(_FACTORY, _setattr):\n def __init__(self, path, line, column, end_line, end_column, text):\n  _setattr(self, 'path', path)\n  _setattr(self, 'line', line)\n  _setattr(self, 'column', column)\n  _setattr(self, 'end_line', end_line)\n  _setattr(self, 'end_column', end_column)\n  _setattr(self, 'text', text)\n return __init__\n": _make_54,
    'def __make__(_FACTORY, _setattr):\n def __init__(self, reads, copied):\n  self.reads = reads\n  self.copied = copied\n return __init__\n': _make_55,
    "def __make__(_FACTORY, _setattr):\n def __init__(self, reason):\n  _setattr(self, 'reason', reason)\n return __init__\n": _make_56,
    'def __make__(_FACTORY, _setattr):\n def __init__(self, statement, first_word, vgpr_end, sgpr_end, names):\n  self.statement = statement\n  self.first_word = first_word\n  self.vgpr_end = vgpr_end\n  self.sgpr_end = sgpr_end\n  self.names = names\n return __init__\n': _make_57,
    'def __make__(_FACTORY, _setattr):\n def __init__(self, statements, lines, first, chain):\n  self.statements = statements\n  self.lines = lines\n  self.first = first\n  self.chain = chain\n return __init__\n': _make_58,
    'def __make__(_FACTORY, _setattr):\n def __init__(self, table, loads, loops, cycles, events, waits):\n  self.table = table\n  self.loads = loads\n  self.loops = loops\n  self.cycles = cycles\n  self.events = events\n  self.waits = waits\n return __init__\n': _make_59,
    'def __make__(_FACTORY, _setattr):\n def __init__(self, target, metadata, descriptors):\n  self.target = target\n  self.metadata = metadata\n  self.descriptors = descriptors\n return __init__\n': _make_60,
    "def __make__(_FACTORY, _setattr):\n def __init__(self, value):\n  _setattr(self, 'value', value)\n return __init__\n": _make_61,
    "def __make__(_FACTORY, _setattr):\n def __init__(self, version, diagnostics, published, hovers):\n  _setattr(self, 'version', version)\n  _setattr(self, 'diagnostics', diagnostics)\n  _setattr(self, 'published', published)\n  _setattr(self, 'hovers', hovers)\n return __init__\n": _make_62,
    'def __make__(_FACTORY, _setattr):\n def __init__(self, wave_size, cumode, referenced_vgprs, referenced_agprs, referenced_sgprs, uses_vcc, uses_flat_scratch, arch_vgprs, agprs, vgprs, sgprs, allocated_vgprs, allocated_sgprs, accum_offset, lds_bytes, scratch_bytes, wg_size, wg_size_source, inputs, occupancy, usage_source):\n  self.wave_size = wave_size\n  self.cumode = cumode\n  self.referenced_vgprs = referenced_vgprs\n  self.referenced_agprs = referenced_agprs\n  self.referenced_sgprs = referenced_sgprs\n  self.uses_vcc = uses_vcc\n  self.uses_flat_scratch = uses_flat_scratch\n  self.arch_vgprs = arch_vgprs\n  self.agprs = agprs\n  self.vgprs = vgprs\n  self.sgprs = sgprs\n  self.allocated_vgprs = allocated_vgprs\n  self.allocated_sgprs = allocated_sgprs\n  self.accum_offset = accum_offset\n  self.lds_bytes = lds_bytes\n  self.scratch_bytes = scratch_bytes\n  self.wg_size = wg_size\n  self.wg_size_source = wg_size_source\n  self.inputs = inputs\n  self.occupancy = occupancy\n  self.usage_source = usage_source\n return __init__\n': _make_63,
    'def __make__(_FACTORY, _setattr):\n def __init__(self, wave_size, per_instruction, facts):\n  self.wave_size = wave_size\n  self.per_instruction = per_instruction\n  self.facts = facts\n return __init__\n': _make_64,
    'def __make__(_FACTORY, _setattr):\n def __init__(self, workgroups, slots_per_wave, units, waves, last_wave_efficiency, busy_units):\n  self.workgroups = workgroups\n  self.slots_per_wave = slots_per_wave\n  self.units = units\n  self.waves = waves\n  self.last_wave_efficiency = last_wave_efficiency\n  self.busy_units = busy_units\n return __init__\n': _make_65,
    "def __make__(_FACTORY, _setattr):\n def __init__(self, x, y, width, height):\n  _setattr(self, 'x', x)\n  _setattr(self, 'y', y)\n  _setattr(self, 'width', width)\n  _setattr(self, 'height', height)\n return __init__\n": _make_66,
    "def __make__(_FACTORY, _setattr, _default_applicability, _default_isolated):\n def __init__(self, description, edits, applicability=_default_applicability, isolated=_default_isolated):\n  _setattr(self, 'description', description)\n  _setattr(self, 'edits', edits)\n  _setattr(self, 'applicability', applicability)\n  _setattr(self, 'isolated', isolated)\n return __init__\n": _make_67,
    'def __make__(_FACTORY, _setattr, _default_banked_vgprs, _default_maxima):\n def __init__(self, kernel, def_use, facts, access, target, is_function, flat_lds, tail_calls, lds_places, lds_read_follows, banked_vgprs=_default_banked_vgprs, maxima=_FACTORY):\n  self.kernel = kernel\n  self.def_use = def_use\n  self.facts = facts\n  self.access = access\n  self.target = target\n  self.is_function = is_function\n  self.flat_lds = flat_lds\n  self.tail_calls = tail_calls\n  self.lds_places = lds_places\n  self.lds_read_follows = lds_read_follows\n  self.banked_vgprs = banked_vgprs\n  self.maxima = _default_maxima() if maxima is _FACTORY else maxima\n return __init__\n': _make_68,
    'def __make__(_FACTORY, _setattr, _default_barrier, _default_nop, _default_unit):\n def __init__(self, category, cost, latency, counters, waits, mfma_passes, reads, writes, pipe_cycles, barrier=_default_barrier, nop=_default_nop, unit=_default_unit):\n  self.category = category\n  self.cost = cost\n  self.latency = latency\n  self.counters = counters\n  self.waits = waits\n  self.mfma_passes = mfma_passes\n  self.reads = reads\n  self.writes = writes\n  self.pipe_cycles = pipe_cycles\n  self.barrier = barrier\n  self.nop = nop\n  self.unit = unit\n return __init__\n': _make_69,
    "def __make__(_FACTORY, _setattr, _default_column):\n def __init__(self, kind, name, path, line, column=_default_column):\n  _setattr(self, 'kind', kind)\n  _setattr(self, 'name', name)\n  _setattr(self, 'path', path)\n  _setattr(self, 'line', line)\n  _setattr(self, 'column', column)\n return __init__\n": _make_70,
    "def __make__(_FACTORY, _setattr, _default_column):\n def __init__(self, rule, message, line, column=_default_column):\n  _setattr(self, 'rule', rule)\n  _setattr(self, 'message', message)\n  _setattr(self, 'line', line)\n  _setattr(self, 'column', column)\n return __init__\n": _make_71,
    'def __make__(_FACTORY, _setattr, _default_column, _default_chain):\n def __init__(self, path, line, column=_default_column, chain=_default_chain):\n  self.path = path\n  self.line = line\n  self.column = column\n  self.chain = chain\n return __init__\n': _make_72,
    "def __make__(_FACTORY, _setattr, _default_consumer, _default_producer, _default_advisory):\n def __init__(self, number, description, applies, states, consumer=_default_consumer, producer=_default_producer, advisory=_default_advisory):\n  _setattr(self, 'number', number)\n  _setattr(self, 'description', description)\n  _setattr(self, 'applies', applies)\n  _setattr(self, 'states', states)\n  _setattr(self, 'consumer', consumer)\n  _setattr(self, 'producer', producer)\n  _setattr(self, 'advisory', advisory)\n return __init__\n": _make_73,
    "def __make__(_FACTORY, _setattr, _default_copies, _default_one_lane, _default_addend_high, _default_reaches, _default_excused):\n def __init__(self, copies=_default_copies, one_lane=_default_one_lane, addend_high=_default_addend_high, reaches=_default_reaches, excused=_default_excused):\n  _setattr(self, 'copies', copies)\n  _setattr(self, 'one_lane', one_lane)\n  _setattr(self, 'addend_high', addend_high)\n  _setattr(self, 'reaches', reaches)\n  _setattr(self, 'excused', excused)\n return __init__\n": _make_74,
    "def __make__(_FACTORY, _setattr, _default_count, _default_half):\n def __init__(self, kind, index, count=_default_count, half=_default_half):\n  _setattr(self, 'kind', kind)\n  _setattr(self, 'index', index)\n  _setattr(self, 'count', count)\n  _setattr(self, 'half', half)\n return __init__\n": _make_75,
    'def __make__(_FACTORY, _setattr, _default_covers, _default_everywhere, _default_used):\n def __init__(self, kind, rules, path, line, column, covers=_FACTORY, everywhere=_default_everywhere, used=_default_used):\n  self.kind = kind\n  self.rules = rules\n  self.path = path\n  self.line = line\n  self.column = column\n  self.covers = _default_covers() if covers is _FACTORY else covers\n  self.everywhere = everywhere\n  self.used = used\n return __init__\n': _make_76,
    "def __make__(_FACTORY, _setattr, _default_cumode, _default_vgpr_label, _default_wg_min):\n def __init__(self, vgprs, sgprs, lds_bytes, wg_size, wave_size, cumode=_default_cumode, vgpr_label=_default_vgpr_label, wg_min=_default_wg_min):\n  _setattr(self, 'vgprs', vgprs)\n  _setattr(self, 'sgprs', sgprs)\n  _setattr(self, 'lds_bytes', lds_bytes)\n  _setattr(self, 'wg_size', wg_size)\n  _setattr(self, 'wave_size', wave_size)\n  _setattr(self, 'cumode', cumode)\n  _setattr(self, 'vgpr_label', vgpr_label)\n  _setattr(self, 'wg_min', wg_min)\n return __init__\n": _make_77,
    "def __make__(_FACTORY, _setattr, _default_dashed):\n def __init__(self, name, points, color, dashed=_default_dashed):\n  _setattr(self, 'name', name)\n  _setattr(self, 'points', points)\n  _setattr(self, 'color', color)\n  _setattr(self, 'dashed', dashed)\n return __init__\n": _make_78,
    'def __make__(_FACTORY, _setattr, _default_default, _default_required, _default_vararg):\n def __init__(self, name, default=_default_default, required=_default_required, vararg=_default_vararg):\n  self.name = name\n  self.default = default\n  self.required = required\n  self.vararg = vararg\n return __init__\n': _make_79,
    "def __make__(_FACTORY, _setattr, _default_device):\n def __init__(self, grid, compute_units, device=_default_device):\n  _setattr(self, 'grid', grid)\n  _setattr(self, 'compute_units', compute_units)\n  _setattr(self, 'device', device)\n return __init__\n": _make_80,
    'def __make__(_FACTORY, _setattr, _default_diagnostics):\n def __init__(self, prefix, file, diagnostics=_FACTORY):\n  self.prefix = prefix\n  self.file = file\n  self.diagnostics = _default_diagnostics() if diagnostics is _FACTORY else diagnostics\n return __init__\n': _make_81,
    'def __make__(_FACTORY, _setattr, _default_dpp, _default_src_ab, _default_src_c, _default_dst, _default_rows, _default_produces, _default_serial, _default_after):\n def __init__(self, operands, modifiers, info, mnemonic, unit, wait_states, valu, mfma, dgemm, xdl, passes, vector_defs, scalar_defs, writes_exec, writes_vcc, dpp=_default_dpp, src_ab=_default_src_ab, src_c=_default_src_c, dst=_default_dst, rows=_default_rows, produces=_default_produces, serial=_FACTORY, after=_FACTORY):\n  self.operands = operands\n  self.modifiers = modifiers\n  self.info = info\n  self.mnemonic = mnemonic\n  self.unit = unit\n  self.wait_states = wait_states\n  self.valu = valu\n  self.mfma = mfma\n  self.dgemm = dgemm\n  self.xdl = xdl\n  self.passes = passes\n  self.vector_defs = vector_defs\n  self.scalar_defs = scalar_defs\n  self.writes_exec = writes_exec\n  self.writes_vcc = writes_vcc\n  self.dpp = dpp\n  self.src_ab = src_ab\n  self.src_c = src_c\n  self.dst = dst\n  self.rows = rows\n  self.produces = produces\n  self.serial = _default_serial() if serial is _FACTORY else serial\n  self.after = _default_after() if after is _FACTORY else after\n return __init__\n': _make_82,
    "def __make__(_FACTORY, _setattr, _default_end_column):\n def __init__(self, rule, message, where, end_column=_default_end_column):\n  _setattr(self, 'rule', rule)\n  _setattr(self, 'message', message)\n  _setattr(self, 'where', where)\n  _setattr(self, 'end_column', end_column)\n return __init__\n": _make_83,
    'def __make__(_FACTORY, _setattr, _default_entries, _default_described, _default_relabelled, _default_handed, _default_reads, _default_waiting, _default_had_code):\n def __init__(self, handle, metadata, metadata_text, entries=_FACTORY, described=_FACTORY, relabelled=_default_relabelled, handed=_FACTORY, reads=_FACTORY, waiting=_FACTORY, had_code=_default_had_code):\n  self.handle = handle\n  self.metadata = metadata\n  self.metadata_text = metadata_text\n  self.entries = _default_entries() if entries is _FACTORY else entries\n  self.described = _default_described() if described is _FACTORY else described\n  self.relabelled = relabelled\n  self.handed = _default_handed() if handed is _FACTORY else handed\n  self.reads = _default_reads() if reads is _FACTORY else reads\n  self.waiting = _default_waiting() if waiting is _FACTORY else waiting\n  self.had_code = had_code\n return __init__\n': _make_84,
    'def __make__(_FACTORY, _setattr, _default_error, _default_quoted, _default_skipped):\n def __init__(self, path, module, diagnostics, error=_default_error, quoted=_FACTORY, skipped=_default_skipped):\n  self.path = path\n  self.module = module\n  self.diagnostics = diagnostics\n  self.error = error\n  self.quoted = _default_quoted() if quoted is _FACTORY else quoted\n  self.skipped = skipped\n return __init__\n': _make_85,
    "def __make__(_FACTORY, _setattr, _default_flat):\n def __init__(self, counter, kind, units, flat=_default_flat):\n  _setattr(self, 'counter', counter)\n  _setattr(self, 'kind', kind)\n  _setattr(self, 'units', units)\n  _setattr(self, 'flat', flat)\n return __init__\n": _make_86,
    'def __make__(_FACTORY, _setattr, _default_generated, _default_debug_lines):\n def __init__(self, source, options, origin, described, generated=_default_generated, debug_lines=_FACTORY):\n  self.source = source\n  self.options = options\n  self.origin = origin\n  self.described = described\n  self.generated = generated\n  self.debug_lines = _default_debug_lines() if debug_lines is _FACTORY else debug_lines\n return __init__\n': _make_87,
    "def __make__(_FACTORY, _setattr, _default_generic, _default_features):\n def __init__(self, name, major, minor, stepping, generic=_default_generic, features=_FACTORY):\n  _setattr(self, 'name', name)\n  _setattr(self, 'major', major)\n  _setattr(self, 'minor', minor)\n  _setattr(self, 'stepping', stepping)\n  _setattr(self, 'generic', generic)\n  _setattr(self, 'features', _default_features() if features is _FACTORY else features)\n return __init__\n": _make_88,
    'def __make__(_FACTORY, _setattr, _default_hazard, _default_waits, _default_registers, _default_extent, _default_cycles):\n def __init__(self, info, hazard=_default_hazard, waits=_default_waits, registers=_default_registers, extent=_default_extent, cycles=_default_cycles):\n  self.info = info\n  self.hazard = hazard\n  self.waits = waits\n  self.registers = registers\n  self.extent = extent\n  self.cycles = cycles\n return __init__\n': _make_89,
    'def __make__(_FACTORY, _setattr, _default_hazards, _default_advisories):\n def __init__(self, hazards=_FACTORY, advisories=_FACTORY):\n  self.hazards = _default_hazards() if hazards is _FACTORY else hazards\n  self.advisories = _default_advisories() if advisories is _FACTORY else advisories\n return __init__\n': _make_90,
    'def __make__(_FACTORY, _setattr, _default_instructions, _default_labels, _default_is_kernel, _default_descriptor, _default_descriptor_where, _default_metadata, _default_kernel_code_t):\n def __init__(self, name, where, instructions=_FACTORY, labels=_FACTORY, is_kernel=_default_is_kernel, descriptor=_FACTORY, descriptor_where=_default_descriptor_where, metadata=_default_metadata, kernel_code_t=_default_kernel_code_t):\n  self.name = name\n  self.where = where\n  self.instructions = _default_instructions() if instructions is _FACTORY else instructions\n  self.labels = _default_labels() if labels is _FACTORY else labels\n  self.is_kernel = is_kernel\n  self.descriptor = _default_descriptor() if descriptor is _FACTORY else descriptor\n  self.descriptor_where = descriptor_where\n  self.metadata = metadata\n  self.kernel_code_t = kernel_code_t\n return __init__\n': _make_91,
    'def __make__(_FACTORY, _setattr, _default_instructions, _default_successors, _default_predecessors):\n def __init__(self, index, label, instructions=_FACTORY, successors=_FACTORY, predecessors=_FACTORY):\n  self.index = index\n  self.label = label\n  self.instructions = _default_instructions() if instructions is _FACTORY else instructions\n  self.successors = _default_successors() if successors is _FACTORY else successors\n  self.predecessors = _default_predecessors() if predecessors is _FACTORY else predecessors\n return __init__\n': _make_92,
    'def __make__(_FACTORY, _setattr, _default_is_cpp):\n def __init__(self, path, number, text, column, is_cpp=_default_is_cpp):\n  self.path = path\n  self.number = number\n  self.text = text\n  self.column = column\n  self.is_cpp = is_cpp\n return __init__\n': _make_93,
    "def __make__(_FACTORY, _setattr, _default_kernel, _default_notes, _default_fix):\n def __init__(self, code, name, severity, message, path, line, column, end_line, end_column, kernel=_default_kernel, notes=_default_notes, fix=_default_fix):\n  _setattr(self, 'code', code)\n  _setattr(self, 'name', name)\n  _setattr(self, 'severity', severity)\n  _setattr(self, 'message', message)\n  _setattr(self, 'path', path)\n  _setattr(self, 'line', line)\n  _setattr(self, 'column', column)\n  _setattr(self, 'end_line', end_line)\n  _setattr(self, 'end_column', end_column)\n  _setattr(self, 'kernel', kernel)\n  _setattr(self, 'notes', notes)\n  _setattr(self, 'fix', fix)\n return __init__\n": _make_94,
    "def __make__(_FACTORY, _setattr, _default_kind, _default_memory, _default_rate, _default_matrix, _default_passes, _default_xdl, _default_returns_data, _default_lds_dma, _default_sampler, _default_counters):\n def __init__(self, unit, kind=_default_kind, memory=_default_memory, rate=_default_rate, matrix=_default_matrix, passes=_default_passes, xdl=_default_xdl, returns_data=_default_returns_data, lds_dma=_default_lds_dma, sampler=_default_sampler, counters=_default_counters):\n  _setattr(self, 'unit', unit)\n  _setattr(self, 'kind', kind)\n  _setattr(self, 'memory', memory)\n  _setattr(self, 'rate', rate)\n  _setattr(self, 'matrix', matrix)\n  _setattr(self, 'passes', passes)\n  _setattr(self, 'xdl', xdl)\n  _setattr(self, 'returns_data', returns_data)\n  _setattr(self, 'lds_dma', lds_dma)\n  _setattr(self, 'sampler', sampler)\n  _setattr(self, 'counters', counters)\n return __init__\n": _make_95,
    'def __make__(_FACTORY, _setattr, _default_line_starts, _default_comments, _default_problems):\n def __init__(self, path, text, lines, line_starts=_FACTORY, comments=_FACTORY, problems=_FACTORY):\n  self.path = path\n  self.text = text\n  self.lines = lines\n  self.line_starts = _default_line_starts() if line_starts is _FACTORY else line_starts\n  self.comments = _default_comments() if comments is _FACTORY else comments\n  self.problems = _default_problems() if problems is _FACTORY else problems\n return __init__\n': _make_96,
    'def __make__(_FACTORY, _setattr, _default_lines):\n def __init__(self, path, lines=_FACTORY):\n  self.path = path\n  self.lines = _default_lines() if lines is _FACTORY else lines\n return __init__\n': _make_97,
    'def __make__(_FACTORY, _setattr, _default_mcpu, _default_include_dirs, _default_defsyms, _default_statement_budget, _default_wg_size, _default_launch, _default_min_waves, _default_baseline, _default_latency_table):\n def __init__(self, mcpu=_default_mcpu, include_dirs=_FACTORY, defsyms=_FACTORY, statement_budget=_default_statement_budget, wg_size=_default_wg_size, launch=_default_launch, min_waves=_default_min_waves, baseline=_default_baseline, latency_table=_default_latency_table):\n  self.mcpu = mcpu\n  self.include_dirs = _default_include_dirs() if include_dirs is _FACTORY else include_dirs\n  self.defsyms = _default_defsyms() if defsyms is _FACTORY else defsyms\n  self.statement_budget = statement_budget\n  self.wg_size = wg_size\n  self.launch = launch\n  self.min_waves = min_waves\n  self.baseline = baseline\n  self.latency_table = latency_table\n return __init__\n': _make_98,
    'def __make__(_FACTORY, _setattr, _default_mcpu, _default_include_dirs, _default_defsyms, _default_use_config, _default_config_file, _default_wg_size, _default_grid, _default_device, _default_cus, _default_min_waves, _default_latency_table, _default_select, _default_extend_select, _default_exclude, _default_extend_exclude, _default_ignore, _default_fail_on, _default_baseline, _default_use_baseline, _default_includers):\n def __init__(self, mcpu=_default_mcpu, include_dirs=_FACTORY, defsyms=_FACTORY, use_config=_default_use_config, config_file=_default_config_file, wg_size=_default_wg_size, grid=_default_grid, device=_default_device, cus=_default_cus, min_waves=_default_min_waves, latency_table=_default_latency_table, select=_FACTORY, extend_select=_FACTORY, exclude=_FACTORY, extend_exclude=_FACTORY, ignore=_FACTORY, fail_on=_default_fail_on, baseline=_default_baseline, use_baseline=_default_use_baseline, includers=_default_includers):\n  self.mcpu = mcpu\n  self.include_dirs = _default_include_dirs() if include_dirs is _FACTORY else include_dirs\n  self.defsyms = _default_defsyms() if defsyms is _FACTORY else defsyms\n  self.use_config = use_config\n  self.config_file = config_file\n  self.wg_size = wg_size\n  self.grid = grid\n  self.device = device\n  self.cus = cus\n  self.min_waves = min_waves\n  self.latency_table = latency_table\n  self.select = _default_select() if select is _FACTORY else select\n  self.extend_select = _default_extend_select() if extend_select is _FACTORY else extend_select\n  self.exclude = _default_exclude() if exclude is _FACTORY else exclude\n  self.extend_exclude = _default_extend_exclude() if extend_exclude is _FACTORY else extend_exclude\n  self.ignore = _default_ignore() if ignore is _FACTORY else ignore\n  self.fail_on = fail_on\n  self.baseline = baseline\n  self.use_baseline = use_baseline\n  self.includers = includers\n return __init__\n': _make_99,
    "def __make__(_FACTORY, _setattr, _default_name, _default_labels, _default_operands, _default_modifiers, _default_args, _default_resolved, _default_pair):\n def __init__(self, kind, name=_default_name, labels=_default_labels, operands=_default_operands, modifiers=_default_modifiers, args=_default_args, resolved=_default_resolved, pair=_default_pair):\n  _setattr(self, 'kind', kind)\n  _setattr(self, 'name', name)\n  _setattr(self, 'labels', labels)\n  _setattr(self, 'operands', operands)\n  _setattr(self, 'modifiers', modifiers)\n  _setattr(self, 'args', args)\n  _setattr(self, 'resolved', resolved)\n  _setattr(self, 'pair', pair)\n return __init__\n": _make_100,
    'def __make__(_FACTORY, _setattr, _default_next_step):\n def __init__(self, waves_per_simd, waves_per_cu, workgroups_per_cu, limits, limiters, next_step=_FACTORY):\n  self.waves_per_simd = waves_per_simd\n  self.waves_per_cu = waves_per_cu\n  self.workgroups_per_cu = workgroups_per_cu\n  self.limits = limits\n  self.limiters = limiters\n  self.next_step = _default_next_step() if next_step is _FACTORY else next_step\n return __init__\n': _make_101,
    'def __make__(_FACTORY, _setattr, _default_original, _default_fixed, _default_applied, _default_found, _default_converged, _default_bom, _default_stamp):\n def __init__(self, result, original=_default_original, fixed=_default_fixed, applied=_FACTORY, found=_default_found, converged=_default_converged, bom=_default_bom, stamp=_default_stamp):\n  self.result = result\n  self.original = original\n  self.fixed = fixed\n  self.applied = _default_applied() if applied is _FACTORY else applied\n  self.found = found\n  self.converged = converged\n  self.bom = bom\n  self.stamp = stamp\n return __init__\n': _make_102,
    'def __make__(_FACTORY, _setattr, _default_pair):\n def __init__(self, mnemonic, operands, modifiers, where, pair=_default_pair):\n  self.mnemonic = mnemonic\n  self.operands = operands\n  self.modifiers = modifiers\n  self.where = where\n  self.pair = pair\n return __init__\n': _make_103,
    "def __make__(_FACTORY, _setattr, _default_path, _default_line, _default_column, _default_expansion):\n def __init__(self, message, path=_default_path, line=_default_line, column=_default_column, expansion=_default_expansion):\n  _setattr(self, 'message', message)\n  _setattr(self, 'path', path)\n  _setattr(self, 'line', line)\n  _setattr(self, 'column', column)\n  _setattr(self, 'expansion', expansion)\n return __init__\n": _make_104,
    'def __make__(_FACTORY, _setattr, _default_path, _default_mcpu, _default_select, _default_extend_select, _default_exclude, _default_extend_exclude, _default_ignore, _default_include_dirs, _default_defsyms, _default_fail_on, _default_severities, _default_min_waves, _default_baseline, _default_latency_table, _default_per_file_ignores):\n def __init__(self, path=_default_path, mcpu=_default_mcpu, select=_FACTORY, extend_select=_FACTORY, exclude=_default_exclude, extend_exclude=_FACTORY, ignore=_FACTORY, include_dirs=_FACTORY, defsyms=_FACTORY, fail_on=_default_fail_on, severities=_FACTORY, min_waves=_default_min_waves, baseline=_default_baseline, latency_table=_default_latency_table, per_file_ignores=_FACTORY):\n  self.path = path\n  self.mcpu = mcpu\n  self.select = _default_select() if select is _FACTORY else select\n  self.extend_select = _default_extend_select() if extend_select is _FACTORY else extend_select\n  self.exclude = exclude\n  self.extend_exclude = _default_extend_exclude() if extend_exclude is _FACTORY else extend_exclude\n  self.ignore = _default_ignore() if ignore is _FACTORY else ignore\n  self.include_dirs = _default_include_dirs() if include_dirs is _FACTORY else include_dirs\n  self.defsyms = _default_defsyms() if defsyms is _FACTORY else defsyms\n  self.fail_on = fail_on\n  self.severities = _default_severities() if severities is _FACTORY else severities\n  self.min_waves = min_waves\n  self.baseline = baseline\n  self.latency_table = latency_table\n  self.per_file_ignores = _default_per_file_ignores() if per_file_ignores is _FACTORY else per_file_ignores\n return __init__\n': _make_105,
    'def __make__(_FACTORY, _setattr, _default_pending, _default_types, _default_regs, _default_flat, _default_unknown, _default_unseen):\n def __init__(self, pending=_default_pending, types=_default_types, regs=_FACTORY, flat=_default_flat, unknown=_default_unknown, unseen=_default_unseen):\n  self.pending = pending\n  self.types = types\n  self.regs = _default_regs() if regs is _FACTORY else regs\n  self.flat = flat\n  self.unknown = unknown\n  self.unseen = unseen\n return __init__\n': _make_106,
    'def __make__(_FACTORY, _setattr, _default_position, _default_ready, _default_events, _default_results, _default_at_barrier, _default_done_at, _default_busy_with, _default_waiting, _default_released):\n def __init__(self, number, simd, position=_default_position, ready=_default_ready, events=_FACTORY, results=_FACTORY, at_barrier=_default_at_barrier, done_at=_default_done_at, busy_with=_default_busy_with, waiting=_default_waiting, released=_default_released):\n  self.number = number\n  self.simd = simd\n  self.position = position\n  self.ready = ready\n  self.events = _default_events() if events is _FACTORY else events\n  self.results = _default_results() if results is _FACTORY else results\n  self.at_barrier = at_barrier\n  self.done_at = done_at\n  self.busy_with = busy_with\n  self.waiting = waiting\n  self.released = released\n return __init__\n': _make_107,
    "def __make__(_FACTORY, _setattr, _default_problem, _default_preserved):\n def __init__(self, defs, uses, klass, variant, problem=_default_problem, preserved=_default_preserved):\n  _setattr(self, 'defs', defs)\n  _setattr(self, 'uses', uses)\n  _setattr(self, 'klass', klass)\n  _setattr(self, 'variant', variant)\n  _setattr(self, 'problem', problem)\n  _setattr(self, 'preserved', preserved)\n return __init__\n": _make_108,
    'def __make__(_FACTORY, _setattr, _default_problem, _default_skipped):\n def __init__(self, path, settings, rule_codes, problem=_default_problem, skipped=_default_skipped):\n  self.path = path\n  self.settings = settings\n  self.rule_codes = rule_codes\n  self.problem = problem\n  self.skipped = skipped\n return __init__\n': _make_109,
    'def __make__(_FACTORY, _setattr, _default_reached):\n def __init__(self, path, boundary, in_copy, reached=_default_reached):\n  self.path = path\n  self.boundary = boundary\n  self.in_copy = in_copy\n  self.reached = reached\n return __init__\n': _make_110,
    'def __make__(_FACTORY, _setattr, _default_seen_else):\n def __init__(self, active, decided, line, seen_else=_default_seen_else):\n  self.active = active\n  self.decided = decided\n  self.line = line\n  self.seen_else = seen_else\n return __init__\n': _make_111,
    'def __make__(_FACTORY, _setattr, _default_select, _default_ignore, _default_severities, _default_per_file_ignores):\n def __init__(self, select=_FACTORY, ignore=_FACTORY, severities=_FACTORY, per_file_ignores=_FACTORY):\n  self.select = _default_select() if select is _FACTORY else select\n  self.ignore = _default_ignore() if ignore is _FACTORY else ignore\n  self.severities = _default_severities() if severities is _FACTORY else severities\n  self.per_file_ignores = _default_per_file_ignores() if per_file_ignores is _FACTORY else per_file_ignores\n return __init__\n': _make_112,
    'def __make__(_FACTORY, _setattr, _default_source, _default_macro_depth, _default_is_macro, _default_index, _default_conditions, _default_iterations):\n def __init__(self, lines, chain, source=_default_source, macro_depth=_default_macro_depth, is_macro=_default_is_macro, index=_default_index, conditions=_FACTORY, iterations=_default_iterations):\n  self.lines = lines\n  self.chain = chain\n  self.source = source\n  self.macro_depth = macro_depth\n  self.is_macro = is_macro\n  self.index = index\n  self.conditions = _default_conditions() if conditions is _FACTORY else conditions\n  self.iterations = iterations\n return __init__\n': _make_113,
    'def __make__(_FACTORY, _setattr, _default_starve_rate, _default_work_items_per_cycle, _default_bottleneck):\n def __init__(self, waves, cycles, clocks_per_wave, utilization, stall_rate, stalls, per_line, trace_length, starve_rate=_default_starve_rate, work_items_per_cycle=_default_work_items_per_cycle, bottleneck=_default_bottleneck):\n  self.waves = waves\n  self.cycles = cycles\n  self.clocks_per_wave = clocks_per_wave\n  self.utilization = utilization\n  self.stall_rate = stall_rate\n  self.stalls = stalls\n  self.per_line = per_line\n  self.trace_length = trace_length\n  self.starve_rate = starve_rate\n  self.work_items_per_cycle = work_items_per_cycle\n  self.bottleneck = bottleneck\n return __init__\n': _make_114,
    "def __make__(_FACTORY, _setattr, _default_tags):\n def __init__(self, name, is_def, size, kinds, tags=_default_tags):\n  _setattr(self, 'name', name)\n  _setattr(self, 'is_def', is_def)\n  _setattr(self, 'size', size)\n  _setattr(self, 'kinds', kinds)\n  _setattr(self, 'tags', tags)\n return __init__\n": _make_115,
    'def __make__(_FACTORY, _setattr, _default_target_triple, _default_kernels, _default_sources, _default_findings, _default_directives, _default_symbols, _default_defined_labels, _default_code_object_version, _default_metadata, _default_options):\n def __init__(self, path, target, target_triple=_default_target_triple, kernels=_FACTORY, sources=_FACTORY, findings=_FACTORY, directives=_FACTORY, symbols=_FACTORY, defined_labels=_FACTORY, code_object_version=_default_code_object_version, metadata=_default_metadata, options=_default_options):\n  self.path = path\n  self.target = target\n  self.target_triple = target_triple\n  self.kernels = _default_kernels() if kernels is _FACTORY else kernels\n  self.sources = _default_sources() if sources is _FACTORY else sources\n  self.findings = _default_findings() if findings is _FACTORY else findings\n  self.directives = _default_directives() if directives is _FACTORY else directives\n  self.symbols = _default_symbols() if symbols is _FACTORY else symbols\n  self.defined_labels = _default_defined_labels() if defined_labels is _FACTORY else defined_labels\n  self.code_object_version = code_object_version\n  self.metadata = metadata\n  self.options = options\n return __init__\n': _make_116,
    "def __make__(_FACTORY, _setattr, _default_vgprs, _default_agprs, _default_sgprs, _default_lds_bytes, _default_wg_size, _default_wave_size, _default_cumode):\n def __init__(self, vgprs=_default_vgprs, agprs=_default_agprs, sgprs=_default_sgprs, lds_bytes=_default_lds_bytes, wg_size=_default_wg_size, wave_size=_default_wave_size, cumode=_default_cumode):\n  _setattr(self, 'vgprs', vgprs)\n  _setattr(self, 'agprs', agprs)\n  _setattr(self, 'sgprs', sgprs)\n  _setattr(self, 'lds_bytes', lds_bytes)\n  _setattr(self, 'wg_size', wg_size)\n  _setattr(self, 'wave_size', wave_size)\n  _setattr(self, 'cumode', cumode)\n return __init__\n": _make_117,
}
