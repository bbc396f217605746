// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ECDSA} from "@openzeppelin/contracts/utils/cryptography/ECDSA.sol";

/// @title OwnerWallet
/// @notice Test only: a smart-contract wallet in the manner of a one-owner Safe. It holds tokens, its owner
/// makes it call anything (`execute`), and it answers ERC-1271 as a Safe does: a signature is its owner's
/// over the wallet's own `SafeMessage` wrapping of the hash (EIP-712, the wallet's domain), never over the
/// hash itself. Permit2 asks this code whether the wallet signed; the wallet's address has no key.
contract OwnerWallet {
    bytes4 private constant MAGIC_VALUE = 0x1626ba7e;
    bytes32 private constant DOMAIN_TYPEHASH = keccak256("EIP712Domain(uint256 chainId,address verifyingContract)");
    bytes32 private constant SAFE_MESSAGE_TYPEHASH = keccak256("SafeMessage(bytes message)");

    address public immutable owner;

    error NotOwner();

    constructor(address owner_) {
        owner = owner_;
    }

    receive() external payable {}

    /// @notice Calls `to` with `data` as the wallet (an approval of Permit2, a transfer); owner only.
    function execute(address to, uint256 value, bytes calldata data) external returns (bytes memory result) {
        if (msg.sender != owner) revert NotOwner();
        bool ok;
        (ok, result) = to.call{value: value}(data);
        if (!ok) {
            assembly ("memory-safe") {
                revert(add(result, 32), mload(result))
            }
        }
    }

    /// @notice What the owner signs for `hash`: the EIP-712 digest of `SafeMessage(abi.encode(hash))`.
    function messageHash(bytes32 hash) public view returns (bytes32) {
        bytes32 domain = keccak256(abi.encode(DOMAIN_TYPEHASH, block.chainid, address(this)));
        bytes32 structHash = keccak256(abi.encode(SAFE_MESSAGE_TYPEHASH, keccak256(abi.encode(hash))));
        return keccak256(abi.encodePacked("\x19\x01", domain, structHash));
    }

    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        (address signer, ECDSA.RecoverError err,) = ECDSA.tryRecover(messageHash(hash), signature);
        return err == ECDSA.RecoverError.NoError && signer == owner ? MAGIC_VALUE : bytes4(0xffffffff);
    }
}
