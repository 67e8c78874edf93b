//===- MavBytecode.h - Bytecode encoding of mav attributes and types -*- C++
//-*-===//

#ifndef MAV_IR_MAVBYTECODE_H
#define MAV_IR_MAVBYTECODE_H

namespace mav {
class MavDialect;

/// Gives the dialect its bytecode encoding of attributes and types.
void addBytecodeInterface(MavDialect *dialect);

} // namespace mav

#endif // MAV_IR_MAVBYTECODE_H
